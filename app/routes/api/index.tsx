import { Link } from "react-router";
import { baseUrlOf } from "~/api/access.server";
import { apiErrorResponse } from "~/api/api-errors.server";
import { openApiDocument } from "~/api/openapi.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CairnMark, publicLinkClass } from "~/components/public-card";
import { appContext } from "~/context/app-context.server";
import type { Route } from "./+types/index";

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
};
type Parameter = { name: string; in: string; required?: boolean; description: string; schema: JsonSchema };
type Operation = {
  operationId: string;
  summary: string;
  description: string;
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, { $ref?: string; description?: string; content?: { "application/json": { schema: JsonSchema } } }>;
};
type Document = {
  info: { title: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, { description: string }> };
};

/** The API's reference, rendered on the server from its OpenAPI document: readable without JavaScript. */
export function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  return { document: openApiDocument(baseUrlOf(services, new URL(request.url)), services.config.apiRatePerMinute) as Document };
}

/** The page takes no form: a POST is told so, in JSON like the rest of /api. */
export function action() {
  return apiErrorResponse("method_not_allowed", "Use GET here.", { headers: { Allow: "GET" } });
}

export const meta: Route.MetaFunction = () => pageTitle("API reference");

const schemaName = (ref: string) => ref.split("/").at(-1)!;

/** A schema in a few words: its type (a referenced one by name), its values and its limits. */
function describeType(schema: JsonSchema): string {
  if (schema.$ref) return schemaName(schema.$ref);
  if (schema.anyOf) return schema.anyOf.map(describeType).join(" or ");
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(", ");
  const type = [schema.type ?? "any"].flat().join(" or ");
  if (type === "array" && schema.items) return `array of ${describeType(schema.items)}`;
  return schema.format ? `${type} (${schema.format})` : type;
}

function limitsOf(schema: JsonSchema): string[] {
  const limits: string[] = [];
  if (schema.minLength !== undefined && schema.minLength > 0) limits.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) limits.push(`at most ${schema.maxLength.toLocaleString("en")} characters`);
  if (schema.maxItems !== undefined) limits.push(`at most ${schema.maxItems} items`);
  if (schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum < 1e9) limits.push(`${schema.minimum} to ${schema.maximum}`);
  if (schema.default !== undefined) limits.push(`default ${JSON.stringify(schema.default)}`);
  for (const option of schema.anyOf ?? []) limits.push(...limitsOf(option));
  return limits;
}

const methodColors: Record<string, string> = {
  get: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  post: "bg-indigo-50 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300",
  patch: "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-300",
};

const cellClass = "border-t border-zinc-200 py-1.5 pr-3 align-top dark:border-zinc-800";

function FieldTable({ caption, rows }: { caption: string; rows: { name: string; required: boolean; schema: JsonSchema; description?: string }[] }) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-[13px]">
        <caption className="mb-1 text-left text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{caption}</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row" className={`${cellClass} whitespace-nowrap font-mono font-medium`}>
                {row.name}
                {row.required ? <span className="ml-1 font-sans text-xs font-normal text-zinc-500 dark:text-zinc-400">required</span> : null}
              </th>
              <td className={`${cellClass} font-mono text-zinc-700 dark:text-zinc-300`}>{describeType(row.schema)}</td>
              <td className={`${cellClass} text-zinc-700 dark:text-zinc-300`}>
                {[row.description ?? row.schema.description, ...limitsOf(row.schema)].filter(Boolean).join("; ")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SchemaFields({ caption, name, document }: { caption: string; name: string; document: Document }) {
  const schema = document.components.schemas[name]!;
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([field, property]) => ({ name: field, required: required.has(field), schema: property }));
  return <FieldTable caption={`${caption}: ${name}`} rows={rows} />;
}

export default function ApiReference({ loaderData: { document } }: Route.ComponentProps) {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
  const shown = ["Issue", "Comment", "Person", "Label", "Workspace", "Project", "Member", "User", "Error"];
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
      <header className="flex items-center gap-3">
        <CairnMark className="size-7" />
        <h1 className="text-2xl font-semibold tracking-tight">{document.info.title}</h1>
      </header>
      <p className="mt-3 max-w-prose text-sm leading-6 text-zinc-700 dark:text-zinc-300">{document.info.description.replaceAll("`", "")}</p>
      <p className="mt-3 text-sm">
        Base URL <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[13px] dark:bg-zinc-800">{document.servers[0]!.url}</code> ·{" "}
        <a className={publicLinkClass} href="/api/v1/openapi.json">
          OpenAPI 3.1 document
        </a>{" "}
        ·{" "}
        <Link className={publicLinkClass} to="/settings/tokens">
          Make a token
        </Link>
      </p>
      <pre className="mt-4 overflow-x-auto rounded-md bg-zinc-100 p-3 font-mono text-[13px] dark:bg-zinc-900">
        {`curl -H "Authorization: Bearer $CAIRN_TOKEN" ${document.servers[0]!.url}/workspaces`}
      </pre>

      <nav aria-label="Endpoints" className="mt-8">
        <h2 className="text-base font-semibold">Endpoints</h2>
        <ul className="mt-2 space-y-1 text-sm">
          {operations.map(({ path, method, operation }) => (
            <li key={operation.operationId} className="flex flex-wrap items-baseline gap-2">
              <span className={`w-14 rounded px-1.5 text-center font-mono text-xs font-semibold uppercase ${methodColors[method]}`}>{method}</span>
              <a className={publicLinkClass} href={`#${operation.operationId}`}>
                {operation.summary}
              </a>
              <code className="break-all font-mono text-[13px] text-zinc-600 dark:text-zinc-400">{path}</code>
            </li>
          ))}
        </ul>
      </nav>

      {operations.map(({ path, method, operation }) => {
        const body = operation.requestBody?.content["application/json"].schema.$ref;
        const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith("2"))!;
        const successSchema = success.content?.["application/json"].schema;
        const item = successSchema?.$ref ?? successSchema?.properties?.data?.items?.$ref;
        const errors = Object.entries(operation.responses).filter(([code]) => !code.startsWith("2"));
        return (
          <section key={operation.operationId} id={operation.operationId} aria-labelledby={`${operation.operationId}-title`} className="mt-10 scroll-mt-4 border-t border-zinc-200 pt-6 dark:border-zinc-800">
            <h2 id={`${operation.operationId}-title`} className="text-lg font-semibold">
              {operation.summary}
            </h2>
            <p className="mt-2 flex flex-wrap items-baseline gap-2">
              <span className={`rounded px-1.5 font-mono text-xs font-semibold uppercase ${methodColors[method]}`}>{method}</span>
              <code className="break-all font-mono text-sm">{path}</code>
            </p>
            {operation.description.split("\n\n").map((paragraph) => (
              <p key={paragraph} className="mt-2 max-w-prose text-sm leading-6 text-zinc-700 dark:text-zinc-300">
                {paragraph.replaceAll("`", "")}
              </p>
            ))}
            {operation.parameters?.length ? (
              <FieldTable
                caption="Parameters"
                rows={operation.parameters.map((p) => ({ name: p.name, required: Boolean(p.required), schema: p.schema, description: `${p.in === "path" ? "In the path. " : ""}${p.description.replaceAll("`", "")}` }))}
              />
            ) : null}
            {body ? <SchemaFields caption="JSON body" name={schemaName(body)} document={document} /> : null}
            <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
              <span className="font-mono font-medium">{status}</span> {success.description}
              {item ? (
                <>
                  {" "}
                  (
                  <a className={publicLinkClass} href={`#schema-${schemaName(item)}`}>
                    {schemaName(item)}
                  </a>
                  )
                </>
              ) : null}
            </p>
            <p className="mt-1 text-[13px] text-zinc-600 dark:text-zinc-400">
              Errors: {errors.map(([code, error]) => `${code} ${schemaName(error.$ref ?? "")}`).join(", ")}.
            </p>
          </section>
        );
      })}

      <section aria-labelledby="schemas-title" className="mt-12 border-t border-zinc-200 pt-6 dark:border-zinc-800">
        <h2 id="schemas-title" className="text-lg font-semibold">
          Objects
        </h2>
        {shown.map((name) => (
          <div key={name} id={`schema-${name}`} className="scroll-mt-4">
            <SchemaFields caption="Object" name={name} document={document} />
          </div>
        ))}
        <h3 className="mt-8 text-base font-semibold">Error codes</h3>
        <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-[13px]">
          {Object.entries(document.components.responses).map(([code, response]) => (
            <div key={code} className="contents">
              <dt className="font-mono font-medium">{code}</dt>
              <dd className="text-zinc-700 dark:text-zinc-300">{response.description.replaceAll("`", "")}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
