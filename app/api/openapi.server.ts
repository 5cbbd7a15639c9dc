import { z } from "zod";
import { issueSorts, priorities, statuses } from "~/issues/issue-fields";
import { filterValueLimit } from "~/issues/issue-list.server";
import { apiErrorStatus, type ApiErrorCode } from "./api-errors.server";
import { apiBasePath } from "./api-paths";
import { apiSchemas, pageSizeDefault, pageSizeMax } from "./schemas.server";

/*
 * The OpenAPI 3.1 document of /api/v1, generated from the API's Zod schemas (./schemas.server.ts,
 * the components) and the operations below (the paths). /api renders it as reference pages.
 */

type Method = "get" | "post" | "patch";
type Parameter = { name: string; in: "path" | "query"; description: string; required?: boolean; schema: object; explode?: boolean };

export type ApiOperation = {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The token scope and the workspace role it needs. */
  needs: { scope: "read" | "write"; role?: string };
  parameters?: Parameter[];
  body?: string;
  response: { status: 200 | 201; schema: string; list?: "all" | "paged"; description: string };
  errors: ApiErrorCode[];
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const pathParameter = {
  workspace: { name: "workspace", in: "path", required: true, description: "The workspace's slug.", schema: { type: "string" } },
  key: { name: "key", in: "path", required: true, description: "The project's key, such as WEB.", schema: { type: "string", pattern: "^[A-Za-z]{2,6}$" } },
  number: { name: "number", in: "path", required: true, description: "The issue's number in its project (42 of WEB-42).", schema: { type: "integer", minimum: 1 } },
} satisfies Record<string, Parameter>;

const repeated = (description: string, item: object): Parameter["schema"] => ({ type: "array", items: item, maxItems: filterValueLimit, description });

const pageParameters: Parameter[] = [
  { name: "limit", in: "query", description: `Items a page, 1 to ${pageSizeMax} (${pageSizeDefault} when left out).`, schema: { type: "integer", minimum: 1, maximum: pageSizeMax, default: pageSizeDefault } },
  { name: "cursor", in: "query", description: "The `next` of the previous page of this list, with the same filters and sort (opaque; another list's is refused).", schema: { type: "string" } },
];

const listFilters: Parameter[] = [
  { name: "status", in: "query", explode: true, description: "Issues with any of these statuses; `open` and `closed` name groups of them.", schema: repeated("Statuses.", { type: "string", enum: [...statuses, "open", "closed"] }) },
  { name: "assignee", in: "query", explode: true, description: "Issues assigned to any of these: a member's id, `me` or `unassigned`.", schema: repeated("Assignees.", { type: "string", pattern: "^(me|unassigned|[1-9][0-9]*)$" }) },
  { name: "label", in: "query", explode: true, description: "Issues with any of these labels (ids).", schema: repeated("Label ids.", { type: "integer", minimum: 1 }) },
  { name: "priority", in: "query", explode: true, description: "Issues with any of these priorities.", schema: repeated("Priorities.", { type: "string", enum: [...priorities] }) },
  { name: "q", in: "query", description: "Text in the title, or an issue's number (42 or WEB-42).", schema: { type: "string", maxLength: 200 } },
  { name: "sort", in: "query", description: "The order: recently updated first (the default), created, priority, due date or number.", schema: { type: "string", enum: [...issueSorts], default: "updated" } },
];

const issuePath = `/workspaces/{workspace}/projects/{key}/issues`;
const readErrors: ApiErrorCode[] = ["unauthenticated", "not_found", "rate_limited", "unexpected"];
const writeErrors: ApiErrorCode[] = ["validation", "unauthenticated", "forbidden", "not_found", "payload_too_large", "unsupported_media_type", "rate_limited", "unexpected"];

/** Every operation of /api/v1, in the order the reference lists them. */
export const apiOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/user",
    operationId: "getUser",
    summary: "The token's user",
    description: "Who the token acts as: its user, whose roles decide what it may see and do.",
    needs: { scope: "read" },
    response: { status: 200, schema: "User", description: "The user." },
    errors: ["unauthenticated", "rate_limited", "unexpected"],
  },
  {
    method: "get",
    path: "/workspaces",
    operationId: "listWorkspaces",
    summary: "List workspaces",
    description: "The workspaces the user is a member of, by name, with their role in each.",
    needs: { scope: "read" },
    response: { status: 200, schema: "Workspace", list: "all", description: "The workspaces." },
    errors: ["unauthenticated", "rate_limited", "unexpected"],
  },
  {
    method: "get",
    path: "/workspaces/{workspace}/projects",
    operationId: "listProjects",
    summary: "List projects",
    description: "The workspace's projects, by name, archived ones too. A workspace the user is not a member of is 404.",
    needs: { scope: "read", role: "viewer" },
    parameters: [pathParameter.workspace],
    response: { status: 200, schema: "Project", list: "all", description: "The projects." },
    errors: readErrors,
  },
  {
    method: "get",
    path: "/workspaces/{workspace}/labels",
    operationId: "listLabels",
    summary: "List labels",
    description: "The labels issues of the workspace can carry (at most 100), by name.",
    needs: { scope: "read", role: "viewer" },
    parameters: [pathParameter.workspace],
    response: { status: 200, schema: "Label", list: "all", description: "The labels." },
    errors: readErrors,
  },
  {
    method: "get",
    path: "/workspaces/{workspace}/members",
    operationId: "listMembers",
    summary: "List members",
    description: "The workspace's members (at most 1,000), by name: whom issues can be assigned to (not viewers) and who can be @mentioned.",
    needs: { scope: "read", role: "viewer" },
    parameters: [pathParameter.workspace],
    response: { status: 200, schema: "Member", list: "all", description: "The members." },
    errors: readErrors,
  },
  {
    method: "get",
    path: issuePath,
    operationId: "listIssues",
    summary: "List issues",
    description: "A page of the project's issues, with the list screen's filters and sorts. Each filter can be repeated (`status=todo&status=in_progress`); an issue matches any of its values. Values that mean nothing are ignored, as in the list's links.",
    needs: { scope: "read", role: "viewer" },
    parameters: [pathParameter.workspace, pathParameter.key, ...listFilters, ...pageParameters],
    response: { status: 200, schema: "Issue", list: "paged", description: "A page of issues and the cursor of the next." },
    errors: ["validation", ...readErrors],
  },
  {
    method: "post",
    path: issuePath,
    operationId: "createIssue",
    summary: "Create an issue",
    description: "Files an issue, as the new-issue form does: the same fields and rules. The reporter is the token's user; the assignee, watchers and mentioned members are notified.",
    needs: { scope: "write", role: "member" },
    parameters: [pathParameter.workspace, pathParameter.key],
    body: "NewIssue",
    response: { status: 201, schema: "Issue", description: "The issue, with a Location header of its page." },
    errors: writeErrors,
  },
  {
    method: "get",
    path: `${issuePath}/{number}`,
    operationId: "getIssue",
    summary: "Get an issue",
    description: "One issue, by its number.",
    needs: { scope: "read", role: "viewer" },
    parameters: [pathParameter.workspace, pathParameter.key, pathParameter.number],
    response: { status: 200, schema: "Issue", description: "The issue." },
    errors: readErrors,
  },
  {
    method: "patch",
    path: `${issuePath}/{number}`,
    operationId: "updateIssue",
    summary: "Update an issue",
    description: "Saves the fields sent; the others stay. `version` is the issue's as you read it: if someone saved it since, nothing is saved and the answer is 409, naming who changed which fields. Read it again and retry.",
    needs: { scope: "write", role: "member" },
    parameters: [pathParameter.workspace, pathParameter.key, pathParameter.number],
    body: "IssuePatch",
    response: { status: 200, schema: "Issue", description: "The issue as saved." },
    errors: [...writeErrors.slice(0, 4), "conflict", ...writeErrors.slice(4)],
  },
  {
    method: "get",
    path: `${issuePath}/{number}/comments`,
    operationId: "listComments",
    summary: "List comments",
    description: "The issue's comments, oldest first (deleted ones are left out).",
    needs: { scope: "read", role: "viewer" },
    parameters: [pathParameter.workspace, pathParameter.key, pathParameter.number, ...pageParameters],
    response: { status: 200, schema: "Comment", list: "paged", description: "A page of comments and the cursor of the next." },
    errors: ["validation", ...readErrors],
  },
  {
    method: "post",
    path: `${issuePath}/{number}/comments`,
    operationId: "createComment",
    summary: "Comment on an issue",
    description: "Adds a comment as the token's user; @mentioned members and the issue's watchers are notified.",
    needs: { scope: "write", role: "member" },
    parameters: [pathParameter.workspace, pathParameter.key, pathParameter.number],
    body: "NewComment",
    response: { status: 201, schema: "Comment", description: "The comment." },
    errors: writeErrors,
  },
];

const errorDescriptions: Record<ApiErrorCode, string> = {
  validation: "A field or parameter is not valid: `fields` names each, with its messages.",
  unauthenticated: "No token, or one that is unknown, revoked or expired.",
  forbidden: "A read token writing, or a role without the permission (a viewer writing), or an archived project.",
  not_found: "No such workspace, project or issue, or one the user cannot see.",
  method_not_allowed: "The URL does not take this method (the Allow header lists those it takes).",
  conflict: "The issue was changed since the `version` sent: the message names who changed which fields.",
  payload_too_large: "The body is over 1 MiB.",
  unsupported_media_type: "The body is not `application/json`.",
  rate_limited: "The token made too many requests this minute: wait for Retry-After seconds.",
  unexpected: "Something went wrong on our side: `digest` identifies it in the operator's logs.",
  unavailable: "Cairn is unavailable for a moment (its database, or a restart): retry after Retry-After seconds.",
};

const rateHeaders = {
  "RateLimit-Limit": { description: "Requests the token may make a minute.", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Requests left this minute.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the minute ends.", schema: { type: "integer" } },
};

/** The components' schemas: Zod's JSON Schema (2020-12, OpenAPI 3.1's dialect) of each registered schema. */
function componentSchemas(): Record<string, object> {
  const { schemas } = z.toJSONSchema(apiSchemas, { uri: (id) => `#/components/schemas/${id}`, io: "input", unrepresentable: "any" });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _dialect, $id: _id, ...schema }]) => [name, schema]),
  );
}

function responseOf(operation: ApiOperation) {
  const { response } = operation;
  const item = ref(response.schema);
  const schema = !response.list
    ? item
    : {
        type: "object",
        properties: {
          data: { type: "array", items: item },
          ...(response.list === "paged" ? { next: { type: ["string", "null"], description: "Pass it as `cursor` for the next page; null on the last." } } : {}),
        },
        required: response.list === "paged" ? ["data", "next"] : ["data"],
      };
  return { description: response.description, headers: rateHeaders, content: { "application/json": { schema } } };
}

let cached: { key: string; document: object } | undefined;

/** The document, for a server at `baseUrl` (PUBLIC_URL, or the address asked) whose tokens may make `ratePerMinute` requests a minute. */
export function openApiDocument(baseUrl: string, ratePerMinute: number): object {
  const key = `${baseUrl} ${ratePerMinute}`;
  if (cached?.key === key) return cached.document;
  const paths: Record<string, Record<string, object>> = {};
  for (const operation of apiOperations) {
    const errors = Object.fromEntries(operation.errors.map((code) => [String(apiErrorStatus[code]), { $ref: `#/components/responses/${code}` }]));
    (paths[operation.path] ??= {})[operation.method] = {
      operationId: operation.operationId,
      summary: operation.summary,
      description: `${operation.description}\n\nNeeds a ${operation.needs.scope} token${operation.needs.role ? `, and a role of ${operation.needs.role} or above in the workspace` : ""}.`,
      ...(operation.parameters ? { parameters: operation.parameters.map(({ explode, ...p }) => (explode ? { ...p, style: "form", explode: true } : p)) } : {}),
      ...(operation.body ? { requestBody: { required: true, content: { "application/json": { schema: ref(operation.body) } } } } : {}),
      responses: { [String(operation.response.status)]: responseOf(operation), ...errors },
    };
  }
  const responses = Object.fromEntries(
    (Object.keys(errorDescriptions) as ApiErrorCode[]).map((code) => [
      code,
      {
        description: errorDescriptions[code],
        ...(code === "rate_limited" || code === "unavailable" ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } } } : {}),
        content: { "application/json": { schema: ref("Error") } },
      },
    ]),
  );
  const document = {
    openapi: "3.1.0",
    info: {
      title: "Cairn API",
      version: "1",
      description:
        `The JSON API of Cairn. Authenticate with a personal access token, made at /settings/tokens, sent as \`Authorization: Bearer cairn_pat_…\`; session cookies do not authenticate it. A token acts as its user, with that user's roles; a \`read\` token cannot write. Each token may make ${ratePerMinute.toLocaleString("en")} requests a minute (API_RATE_LIMIT); every answer says where it stands in \`RateLimit-*\` headers, and a request over the limit is answered 429 with Retry-After. Errors are JSON: \`{"error": {"code", "message", "fields"?, "digest"?}}\`.`,
    },
    servers: [{ url: `${baseUrl}${apiBasePath}` }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "A personal access token: `cairn_pat_` and 40 letters and digits." } },
      schemas: componentSchemas(),
      responses,
    },
  };
  cached = { key, document };
  return document;
}
