import { z } from "zod";
import { commentBodyField } from "~/comments/forms.server";
import { maxInteger } from "~/forms/fields.server";
import { issueFieldRules, labelLimitMessage } from "~/issues/forms.server";
import { priorities, statuses } from "~/issues/issue-fields";
import { maxLabelsPerIssue } from "~/labels/labels.server";
import { labelColors } from "~/labels/palette";
import { roles } from "~/workspaces/roles";

/*
 * The API's JSON, as Zod schemas: the request bodies validate with the field rules the forms use
 * (app/issues/forms.server.ts, app/comments), and the OpenAPI document (./openapi.server.ts) is
 * generated from all of them. Ids are JSON numbers here, where a form sends them as text.
 */

/** The schemas the OpenAPI document lists as its components, by name. */
export const apiSchemas = z.registry<{ id: string }>();

const id = (message: string) => z.number({ error: message }).int(message).positive(message).max(maxInteger, message);

// ---- Request bodies ---------------------------------------------------------------------------

export const newIssueBody = z.strictObject({
  title: issueFieldRules.title.describe("One line, at most 200 characters."),
  description: issueFieldRules.description.default("").describe("Markdown, at most 50,000 characters."),
  status: issueFieldRules.status.default("backlog"),
  priority: issueFieldRules.priority.default("none"),
  assigneeId: id("Choose a member.").nullable().default(null).describe("A member who can work on issues (not a viewer), or null."),
  labelIds: z.array(id("Choose a label.")).max(maxLabelsPerIssue, labelLimitMessage).default([]).describe("Labels of the workspace."),
  dueDate: issueFieldRules.dueDate.nullable().default(null).describe("A date like 2026-12-31, or null."),
}).register(apiSchemas, { id: "NewIssue" });

export const issuePatchBody = z.strictObject({
  version: id("Send the version of the issue you read.").describe("The `version` of the issue as you read it: a stale one is answered 409."),
  title: newIssueBody.shape.title.optional(),
  description: issueFieldRules.description.optional(),
  status: issueFieldRules.status.optional(),
  priority: issueFieldRules.priority.optional(),
  assigneeId: id("Choose a member.").nullable().optional().describe("A member who can work on issues, or null for nobody."),
  labelIds: z.array(id("Choose a label.")).max(maxLabelsPerIssue, labelLimitMessage).optional().describe("The issue's whole set of labels."),
  dueDate: issueFieldRules.dueDate.nullable().optional(),
}).register(apiSchemas, { id: "IssuePatch" });

export const newCommentBody = z.strictObject({ body: commentBodyField.describe("Markdown, at most 10,000 characters.") }).register(apiSchemas, { id: "NewComment" });

// ---- Query parameters -------------------------------------------------------------------------

export const pageSizeDefault = 50;
export const pageSizeMax = 100;

/** `limit` and `cursor` of a paged list. */
export const pageQuery = z.object({
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, `Use a whole number from 1 to ${pageSizeMax}.`)
    .transform(Number)
    .refine((n) => n <= pageSizeMax, `Use a whole number from 1 to ${pageSizeMax}.`)
    .optional(),
  cursor: z.string().max(2000, "This cursor is not valid: use the `next` of the previous page.").optional(),
});

// ---- Responses --------------------------------------------------------------------------------

/** Times as ISO 8601 text (a pattern would only clutter the document). */
const timestamp = z.string().meta({ format: "date-time" });

export const apiPerson = z.object({ id: z.number().int(), name: z.string(), handle: z.string() }).register(apiSchemas, { id: "Person" });
export const apiLabel = z.object({ id: z.number().int(), name: z.string(), color: z.enum(labelColors) }).register(apiSchemas, { id: "Label" });

export const apiIssue = z
  .object({
    id: z.number().int(),
    key: z.string().describe("The project's key and the issue's number, as in WEB-42."),
    number: z.number().int(),
    title: z.string(),
    description: z.string().describe("Markdown."),
    status: z.enum(statuses),
    priority: z.enum(priorities),
    assignee: apiPerson.nullable(),
    labels: z.array(apiLabel),
    dueDate: z.string().meta({ format: "date" }).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    closedAt: timestamp.nullable(),
    version: z.number().int().describe("Send it back with a PATCH: a save from an older version is refused (409)."),
    url: z.string().meta({ format: "uri" }).describe("The issue's page."),
  })
  .register(apiSchemas, { id: "Issue" });

export const apiComment = z
  .object({
    id: z.number().int(),
    body: z.string().describe("Markdown."),
    author: apiPerson.nullable().describe("Null once the author's account is deleted."),
    createdAt: timestamp,
    updatedAt: timestamp,
    edited: z.boolean(),
  })
  .register(apiSchemas, { id: "Comment" });

export const apiUser = z
  .object({ id: z.number().int(), name: z.string(), handle: z.string(), email: z.string().meta({ format: "email" }), timeZone: z.string().nullable() })
  .register(apiSchemas, { id: "User" });

export const apiWorkspace = z
  .object({ id: z.number().int(), slug: z.string(), name: z.string(), role: z.enum(roles).describe("Your role in it."), url: z.string().meta({ format: "uri" }) })
  .register(apiSchemas, { id: "Workspace" });

export const apiProject = z
  .object({
    id: z.number().int(),
    key: z.string(),
    name: z.string(),
    archived: z.boolean().describe("An archived project is read-only."),
    url: z.string().meta({ format: "uri" }),
  })
  .register(apiSchemas, { id: "Project" });

export const apiMember = z.object({ id: z.number().int(), name: z.string(), handle: z.string(), role: z.enum(roles) }).register(apiSchemas, { id: "Member" });

export const apiError = z
  .object({
    error: z.object({
      code: z.string().describe("validation, unauthenticated, forbidden, not_found, method_not_allowed, conflict, payload_too_large, unsupported_media_type, rate_limited, unexpected or unavailable."),
      message: z.string(),
      fields: z.record(z.string(), z.array(z.string())).optional().describe("Each bad field's messages (400)."),
      digest: z.string().optional().describe("The id of an unexpected error (500), for the operator's logs."),
    }),
  })
  .register(apiSchemas, { id: "Error" });

export type ApiIssue = z.output<typeof apiIssue>;
export type ApiComment = z.output<typeof apiComment>;

