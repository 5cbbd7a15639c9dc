/**
 * Issue 11: whatever a client sends, Cairn answers below 500 and shows no stack trace, no SQL and no
 * error message of its own. Every form route and every list URL (docs/product.md, Screens and "Form fields") gets
 * odd values — NUL, text-direction controls, lone surrogates, line separators, huge, negative and
 * malformed numbers — in each field and query parameter, bodies of the wrong content type or over
 * 1 MiB, broken percent-encodings, malformed or foreign Host headers, and odd route parameters, as a
 * signed-in owner (so that actions are reached) on every database. The forms that carry files
 * (multipart: a new issue, attach, a comment, the upload endpoint) also get odd filenames and
 * malformed multipart bodies; their files may be at most 64 KiB here, so that bodies over the
 * limits stay small.
 *
 * To add a kind of request, add a `RequestKind` to `requestKinds`: it turns each form, upload form,
 * list URL or route of the site (or the site itself) into the requests it wants sent. Requests go over a raw
 * connection: any header can be set or left out (a `host` header replaces the real one), and the
 * body is sent with its Content-Length. The run prints how many requests each kind sent and the
 * statuses they got.
 */
import { request as httpRequest } from "node:http";
import { expect, it } from "vitest";
import { createApiToken } from "~/auth/api-tokens.server";
import { addComment } from "~/comments/comments.server";
import { createIssue } from "~/issues/issues.server";
import { createInvitation } from "~/workspaces/invitations.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects } from "../support/databases";
import { issueFields } from "../support/issues";
import { startServer } from "../support/server";
import { insertUser } from "../support/users";
import { addMember, insertProject } from "../support/workspaces";

/** What the test knows of the site it attacks: enough for every form to reach its action. */
type Site = {
  slug: string;
  key: string;
  issueNumber: number;
  issueId: number;
  labelId: number;
  commentId: number;
  /** An attachment of the issue, and its name: the file route's parameters. */
  attachmentId: number;
  attachmentName: string;
  memberId: number;
  invitationId: number;
  invitationToken: string;
  digest: string;
  ownerEmail: string;
  ownerPassword: string;
  /** The owner's write token, for the API. */
  apiToken: string;
};

/** Signed in by cookie, by the API token (`token`, sent as a bearer), or neither. */
type Who = "owner" | "anonymous" | "token";

type HostileRequest = {
  /** What it tries, as a failure names it. */
  what: string;
  /** The RequestKind it comes from (set by requestsOf). */
  kind?: string;
  method: "GET" | "POST" | "PATCH";
  /** Path and query string, sent byte for byte as written (encode what should be encoded). */
  target: string;
  as: Who;
  headers?: Record<string, string>;
  body?: string | Buffer;
};

/** A form as a browser without JavaScript posts it (urlencoded); `fields` are valid or nearly. */
type FormTarget = { path: string; as: Who; fields: Record<string, string>; numeric?: string[] };
/** A form that carries files (multipart/form-data): its other fields, valid; files go in `file`. */
type UploadTarget = { path: string; as: Who; fields: Record<string, string> };
/** A page that reads query parameters; `numeric` ones are numbers or ids. */
type ListTarget = { path: string; as: Who; params: string[]; numeric?: string[] };
/** A route whose parameters reach the database; `:name` placeholders, and its form if it has one. */
type RouteTarget = { pattern: string; base: Record<string, string>; form?: Record<string, string> };

type RequestKind = {
  name: string;
  forForm?: (form: FormTarget) => HostileRequest[];
  forUpload?: (upload: UploadTarget) => HostileRequest[];
  forList?: (list: ListTarget) => HostileRequest[];
  forRoute?: (route: RouteTarget) => HostileRequest[];
  /** Requests of their own, such as monitoring beacons. */
  forSite?: (site: Site) => HostileRequest[];
};

/**
 * One value for each rule of app/forms/fields.server.ts (a form cannot carry a lone surrogate: it
 * arrives as U+FFFD). Each starts with "/" so that fields holding a path (redirectTo, returnTo) use it.
 */
const hostileText: Record<string, string> = {
  NUL: "/a\u0000b",
  "direction controls": "/\u202egnp.exe \u2067x\u2069",
  "lone surrogates": "/\udc00a\ud800",
  "line separator and C1 controls": "/a\u2028b\u0085\u009b",
};
/** 2^31 (one past PostgreSQL's integer), past a safe integer, negative, fractional, infinite. */
const hostileNumbers = ["2147483648", "99999999999999999999", "-1", "1.5", "1e309"];
/** Query strings as a hand-edited URL may carry them: broken or invalid percent-encodings (the first also as a data request). */
const rawQueryValues = ["%00", "%ff%fe", "%", "%E2%80%AE", "%ED%A0%80", "%C0%AE"];
/** Route parameter segments, already encoded. */
const hostileSegments = ["a%00b", "%E2%80%AE", "%ED%A0%80", "%ff", "x".repeat(2000), "2147483648", "-1", "%2F"];

const urlencoded = { "content-type": "application/x-www-form-urlencoded" };
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** React Router's data request for a page (what JavaScript sends): `/x?index` → `/x.data?index`. */
const dataUrl = (path: string) => {
  const [pathname, query] = path.split("?") as [string, string | undefined];
  return `${pathname === "/" ? "/_root" : pathname}.data${query === undefined ? "" : `?${query}`}`;
};

/** The same request with a Host that makes no URL, with none, and addressed to another host. */
function malformedHosts(path: string, method: "GET" | "POST", as: Who, body?: string): HostileRequest[] {
  const withBody = body === undefined ? {} : { body };
  const bodyHeaders = body === undefined ? {} : urlencoded;
  return [
    ...["a b", "300.0.0.1", "example.com:99999", "user@example.com", ""].map((host) => ({
      what: `${method} ${path} with Host ${JSON.stringify(host)}`,
      method,
      target: path,
      as,
      headers: { ...bodyHeaders, host },
      ...withBody,
    })),
    { what: `${method} ${path} addressed to another host`, method, target: `http://elsewhere.example${path}`, as, headers: bodyHeaders, ...withBody },
  ];
}

/** ATTACHMENT_MAX_BYTES of the server under attack: small, so that files over it are small. */
const attachmentMaxBytes = 64 * 1024;

const boundary = "----CairnHostileBoundary";
const multipartType = (value = boundary) => ({ "content-type": `multipart/form-data; boundary=${value}` });
const textPart = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
/** A part byte for byte: its Content-Disposition parameters (after `form-data; `), its bytes and their type. */
const filePart = (disposition: string | Buffer, content: string | Buffer = "hello", type = "text/plain") =>
  Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; `), Buffer.from(disposition), Buffer.from(`\r\nContent-Type: ${type}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n")]);
const namedFile = (filename: string | Buffer) => Buffer.concat([Buffer.from('name="file"; filename="'), Buffer.from(filename), Buffer.from('"')]);
/** A form's fields, then these parts, then the closing delimiter (unless `open`). */
const multipartBody = (fields: Record<string, string>, parts: (string | Buffer)[], { open = false } = {}) =>
  Buffer.concat([...Object.entries(fields).map(([name, value]) => Buffer.from(textPart(name, value))), ...parts.map((part) => Buffer.from(part)), Buffer.from(open ? "" : `--${boundary}--\r\n`)]);

/** Filenames as a client may send them: the bytes between the quotes of `filename="…"`. */
const hostileFilenames: [string, string | Buffer][] = [
  ["NUL", "a\u0000b.png"],
  ["direction controls", "\u202egnp.exe \u2067x\u2069.png"],
  ["10,000 characters", `${"x".repeat(10_000)}.png`],
  ["a path", "../../etc/passwd"],
  ["a Windows path", "C:\\Users\\ada\\..\\secret.txt"],
  ["dots only", ".."],
  ["an empty name", ""],
  ["line separator and C1 controls", "a\u2028b\u0085\u009b.txt"],
  ["percent-encodings", "%2e%2e%2F%00%ff%2F.txt"],
  ["Markdown and HTML", "](javascript:alert(1)) <img src=x onerror=alert(1)>.png"],
  ["invalid UTF-8", Buffer.from([0x61, 0xff, 0xfe, 0x2e, 0x74, 0x78, 0x74])],
  ["a lone surrogate's bytes", Buffer.from([0xed, 0xa0, 0x80, 0x2e, 0x74, 0x78, 0x74])],
];

function* fieldValues(name: string, numeric: readonly string[] = []): Generator<[string, string]> {
  for (const [what, value] of Object.entries(hostileText)) yield [what, value];
  if (numeric.includes(name)) for (const value of hostileNumbers) yield [JSON.stringify(value), value];
}

const requestKinds: RequestKind[] = [
  {
    name: "odd field values",
    forForm: (form) =>
      Object.keys(form.fields).flatMap((field) =>
        [...fieldValues(field, form.numeric)].map(([what, value]) => ({
          what: `${form.path} ${field}=${what}`,
          method: "POST" as const,
          target: form.path,
          as: form.as,
          headers: urlencoded,
          body: formBody({ ...form.fields, [field]: value }),
        })),
      ),
  },
  {
    name: "wrong content types",
    forForm: (form) => {
      const bodies: [string, Record<string, string>, string][] = [
        ["text/plain", { "content-type": "text/plain" }, formBody(form.fields)],
        ["application/json", { "content-type": "application/json" }, JSON.stringify(form.fields)],
        ["no content type", {}, formBody(form.fields)],
        ["multipart without a boundary", { "content-type": "multipart/form-data" }, "--x\r\n"],
        ["multipart with a broken body", { "content-type": "multipart/form-data; boundary=x" }, "--x\r\ngarbage"],
        ["invalid UTF-8 urlencoded", urlencoded, "name=%ff%fe&title=%C0%AE&intent=%00"],
      ];
      // The first also as JavaScript sends it, to the data URL.
      return bodies.flatMap(([what, headers, body], i) =>
        (i === 0 ? [form.path, dataUrl(form.path)] : [form.path]).map((target) => ({ what: `${target} as ${what}`, method: "POST" as const, target, as: form.as, headers, body })),
      );
    },
  },
  {
    name: "odd query parameters",
    forList: (list) =>
      list.params.flatMap((param) => {
        const join = list.path.includes("?") ? "&" : "?";
        const encoded = [...fieldValues(param, list.numeric)].map(([what, value]) => ({
          what: `${list.path} ${param}=${what}`,
          method: "GET" as const,
          target: `${list.path}${join}${new URLSearchParams({ [param]: value })}`,
          as: list.as,
        }));
        const raw = rawQueryValues.flatMap((value, i) =>
          (i === 0 ? [list.path, dataUrl(list.path)] : [list.path]).map((path) => ({
            what: `${path} ${param}=${value} (raw)`,
            method: "GET" as const,
            target: `${path}${path.includes("?") ? "&" : "?"}${param}=${value}`,
            as: list.as,
          })),
        );
        return [...encoded, ...raw, { what: `${list.path} ${param} repeated`, method: "GET" as const, target: `${list.path}${join}${param}=1&${param}=%00&${param}=x`, as: list.as }];
      }),
  },
  {
    name: "odd route parameters",
    forRoute: (route) =>
      [...route.pattern.matchAll(/:(\w+)/g)].flatMap(([, param]) =>
        hostileSegments.flatMap((segment) => {
          const target = route.pattern.replace(/:(\w+)/g, (_, name: string) => (name === param ? segment : route.base[name]!));
          const get = { what: `GET ${route.pattern} ${param}=${segment.slice(0, 20)}`, method: "GET" as const, target, as: "owner" as const };
          if (!route.form) return [get];
          const post = { ...get, what: `POST ${route.pattern} ${param}=${segment.slice(0, 20)}`, method: "POST" as const, headers: urlencoded, body: formBody(route.form) };
          return [get, post];
        }),
      ),
  },
  {
    name: "multipart bodies",
    // What the forms that carry files may be sent: odd filenames and files, and bodies that are not quite multipart.
    forUpload: (upload) => {
      const request = (what: string, body: string | Buffer, headers: Record<string, string> = multipartType(), target = upload.path): HostileRequest => ({
        what: `${target}${upload.fields.intent ? ` intent=${upload.fields.intent}` : ""} ${what}`,
        method: "POST",
        target,
        as: upload.as,
        headers,
        body,
      });
      const withParts = (what: string, ...parts: (string | Buffer)[]) => request(what, multipartBody(upload.fields, parts));
      const file = filePart(namedFile("notes.txt"));
      const valid = multipartBody(upload.fields, [file]);
      const longBoundary = "b".repeat(200);
      return [
        ...hostileFilenames.map(([what, name]) => withParts(`filename ${what}`, filePart(namedFile(name)))),
        withParts("a file part without a filename", filePart('name="file"')),
        withParts("an empty file", filePart(namedFile("empty.txt"), "")),
        withParts("an HTML page sent as image/png", filePart(namedFile("cat.png"), "<!doctype html><script>alert(1)</script>", "image/png")),
        withParts("a PNG cut after its header's length", filePart(namedFile("broken.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0xff]), "image/png")),
        withParts("a filename* parameter", filePart("name=\"file\"; filename*=UTF-8''%ED%A0%80%E2%80%AE.txt")),
        withParts("an odd part type", filePart(namedFile("odd.txt"), "hello", "text/html; charset=\u00ff")),
        withParts("a part without Content-Disposition", `--${boundary}\r\nContent-Type: text/plain\r\n\r\nhello\r\n`),
        withParts("files in the text fields", ...["intent", "title", "description", "body"].map((name) => filePart(`name="${name}"; filename="${name}.txt"`)), file),
        withParts("a file over ATTACHMENT_MAX_BYTES", filePart(namedFile("big.bin"), Buffer.alloc(attachmentMaxBytes + 1, 0x61))),
        withParts("11 files", ...Array.from({ length: 11 }, () => file)),
        withParts("1,000 text parts named file", ...Array.from({ length: 1000 }, () => textPart("file", "x"))),
        request("without a boundary", valid, { "content-type": "multipart/form-data" }),
        request("with another boundary", valid, multipartType("----SomethingElse")),
        request("with a boundary of 200 characters", Buffer.from(valid.toString("latin1").replaceAll(boundary, longBoundary), "latin1"), multipartType(longBoundary)),
        request("cut short in a file", Buffer.concat([multipartBody(upload.fields, [], { open: true }), filePart(namedFile("cut.txt"), "hello, wor").subarray(0, -6)])),
        request("without its closing delimiter", multipartBody(upload.fields, [file], { open: true })),
        request("with a part's headers and no blank line", multipartBody(upload.fields, [`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n`])),
        request("empty", ""),
        request("as multipart/mixed", valid, { "content-type": `multipart/mixed; boundary=${boundary}` }),
        request("over the uploads' cap", multipartBody(upload.fields, [filePart(namedFile("huge.bin"), Buffer.alloc(2 * 1024 * 1024, 0x61))])),
        // As JavaScript sends them, to the data URL.
        request("with a file, as a data request", valid, multipartType(), dataUrl(upload.path)),
        request("without a boundary, as a data request", valid, { "content-type": "multipart/form-data" }, dataUrl(upload.path)),
        request("with the filename NUL, as a data request", multipartBody(upload.fields, [filePart(namedFile("a\u0000b.png"))]), multipartType(), dataUrl(upload.path)),
      ];
    },
  },
  {
    name: "odd attachment addresses",
    // The file route reads its id and name from the address itself: what a hand-typed or mangled address may hold.
    forSite: (site) => {
      const files = `/w/${site.slug}/attachments`;
      const name = encodeURIComponent(site.attachmentName);
      const get = (what: string, target: string, headers: Record<string, string> = {}, as: Who = "owner"): HostileRequest => ({ what: `GET attachment ${what}`, method: "GET", target, as, headers });
      const ids = ["0", "01", "1.5", "1e3", "0x1", "+1", "%201", "9".repeat(400)];
      const names = ["other.png", "%ff", "a%00b", "%252F", "..", "%2e%2e", "x".repeat(5000), `${name}/`, `${name}%2F..`];
      return [
        ...ids.map((id) => get(`id=${id.slice(0, 20)}`, `${files}/${id}/${name}`)),
        ...names.map((filename) => get(`filename=${filename.slice(0, 20)}`, `${files}/${site.attachmentId}/${filename}`)),
        get("as a data request", dataUrl(`${files}/${site.attachmentId}/${name}`)),
        get("with no name", `${files}/${site.attachmentId}`),
        get("with no name, trailing slash", `${files}/${site.attachmentId}/`),
        ...['"1"', "*", 'W/"1", "x"', `"${"9".repeat(8000)}"`, "\u00ff\u0085"].map((etag, i) => get(`If-None-Match #${i + 1}`, `${files}/${site.attachmentId}/${name}`, { "if-none-match": etag })),
        get("signed out", `${files}/${site.attachmentId}/${name}`, {}, "anonymous"),
      ];
    },
  },
  {
    name: "oversized bodies",
    // Over docs/product.md, Limits's 1 MiB, sent whole as a browser posts a form: refused (413) before it is read.
    forForm: (form) => [
      {
        what: `${form.path} with a body over 1 MiB`,
        method: "POST" as const,
        target: form.path,
        as: form.as,
        headers: urlencoded,
        body: formBody({ ...form.fields, padding: "x".repeat(1024 * 1024) }),
      },
    ],
  },
  {
    name: "malformed Host",
    // No URL of this site can be made of them: 400 before any route runs. ("" sends no Host at all.)
    forForm: (form) => malformedHosts(form.path, "POST", form.as, formBody(form.fields)),
    forList: (list) => malformedHosts(list.path, "GET", list.as),
  },
  {
    name: "odd User-Agent headers",
    // Stored with the session a sign-in starts, and with each browser event. A header carries
    // Latin-1 at most: C1 control characters, and more than anyone would store.
    forSite: (site) =>
      ["Mozilla/5.0 \u0085\u009b[31m\u00ff", `Mozilla/5.0 ${"x".repeat(8000)}`].flatMap((userAgent, i) => [
        {
          what: `sign-in with User-Agent #${i + 1}`,
          method: "POST" as const,
          target: "/login",
          as: "anonymous" as const,
          headers: { ...urlencoded, "user-agent": userAgent },
          body: formBody({ email: site.ownerEmail, password: site.ownerPassword }),
        },
        {
          what: `beacon with User-Agent #${i + 1}`,
          method: "POST" as const,
          target: "/monitoring",
          as: "anonymous" as const,
          headers: { "content-type": "application/json", "user-agent": userAgent },
          body: JSON.stringify({ events: [{ kind: "client_error", message: "Boom", route: "/w/:workspace", url: "/w/acme" }] }),
        },
      ]),
  },
  {
    name: "odd API requests",
    forSite: (site) => {
      const issues = `/api/v1/workspaces/${site.slug}/projects/${site.key}/issues`;
      const issue = `${issues}/${site.issueNumber}`;
      const json = { "content-type": "application/json" };
      const asJson = (what: string, method: "POST" | "PATCH", target: string, body: unknown) => ({ what: `${method} ${target} ${what}`, method, target, as: "token" as const, headers: json, body: JSON.stringify(body) });
      const bodies: [string, "POST" | "PATCH", Record<string, unknown>][] = [
        [issues, "POST", { title: "API", description: "", status: "todo", priority: "low", assigneeId: site.memberId, labelIds: [site.labelId], dueDate: "2026-12-31" }],
        [issue, "PATCH", { version: 1, title: "API", description: "", status: "todo", priority: "low", assigneeId: site.memberId, labelIds: [site.labelId], dueDate: "2026-12-31" }],
        [`${issue}/comments`, "POST", { body: "From the API" }],
      ];
      const oddJsonValues: [string, unknown][] = [
        ...Object.entries(hostileText),
        ...hostileNumbers.map((n): [string, unknown] => [`number ${n}`, Number(n)]),
        ...hostileNumbers.map((n): [string, unknown] => [`string ${n}`, n]),
        ["null", null],
        ["an object", { $gt: "" }],
        ["an array", ["a", 1, null]],
        ["a long text", "x".repeat(60_000)],
      ];
      const fieldRequests = bodies.flatMap(([target, method, body]) =>
        Object.keys(body).flatMap((field) => oddJsonValues.map(([what, value]) => asJson(`${field}=${what}`, method, target, { ...body, [field]: value }))),
      );
      const raw = (what: string, method: "GET" | "POST", target: string, headers: Record<string, string>, body?: string) => ({ what: `${method} ${target} ${what}`, method, target, as: "token" as const, headers, ...(body === undefined ? {} : { body }) });
      const shapes = [
        raw("as invalid JSON", "POST", issues, json, "{\"title\": "),
        raw("as invalid UTF-8", "POST", issues, json, Buffer.from([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString("latin1")),
        raw("as a form", "POST", issues, urlencoded, "title=x"),
        raw("without a content type", "POST", issues, {}, '{"title":"x"}'),
        raw("deeply nested", "POST", issues, json, `${"[".repeat(5000)}${"]".repeat(5000)}`),
        raw("over 1 MiB", "POST", issues, json, JSON.stringify({ title: "x", description: "x".repeat(1024 * 1024) })),
        ...["Bearer", "Bearer  ", `Bearer ${"x".repeat(8000)}`, "Bearer cairn_pat_\u00ff\u0085", "bearer cairn_pat_", "Token abc"].map((authorization, i) => ({
          what: `GET /api/v1/user with Authorization #${i + 1}`,
          method: "GET" as const,
          target: "/api/v1/user",
          as: "anonymous" as const,
          headers: { authorization },
        })),
      ];
      const query = ["status", "assignee", "label", "priority", "q", "sort", "limit", "cursor"].flatMap((param) => [
        ...[...Object.values(hostileText), ...hostileNumbers].map((value) => raw(`${param}=${JSON.stringify(value).slice(0, 20)}`, "GET", `${issues}?${new URLSearchParams({ [param]: value })}`, {})),
        ...rawQueryValues.map((value) => raw(`${param}=${value} (raw)`, "GET", `${issues}?${param}=${value}`, {})),
      ]);
      const segments = ["/api/v1/workspaces/:workspace/projects", "/api/v1/workspaces/:workspace/projects/:key/issues/:number/comments"].flatMap((pattern) =>
        [...pattern.matchAll(/:(\w+)/g)].flatMap(([, param]) =>
          hostileSegments.map((segment) => {
            const base: Record<string, string> = { workspace: site.slug, key: site.key, number: String(site.issueNumber) };
            return raw(`${param}=${segment.slice(0, 20)}`, "GET", pattern.replace(/:(\w+)/g, (_, name: string) => (name === param ? segment : base[name]!)), {});
          }),
        ),
      );
      return [...fieldRequests, ...shapes, ...query, ...segments];
    },
  },
  {
    name: "odd monitoring beacons",
    forSite: () => {
      // At most 60 beacons a minute are read (docs/product.md, Limits): the values that matter for text and numbers.
      const error = { kind: "client_error", message: "Boom", stack: "Error: Boom", route: "/w/:workspace", url: "/w/acme" };
      const vital = { kind: "web_vital", name: "LCP", value: 1200, rating: "good", route: "/w/:workspace", url: "/w/acme" };
      const beacons: [string, unknown][] = [];
      for (const field of ["message", "stack", "route", "url"] as const) {
        for (const [what, value] of Object.entries(hostileText)) beacons.push([`client_error ${field}=${what}`, { events: [{ ...error, [field]: value }] }]);
      }
      for (const value of [2147483648, 1e308, -1, 1.5]) beacons.push([`web_vital value=${value}`, { events: [{ ...vital, value }] }]);
      beacons.push(["web_vital value as a string", { events: [{ ...vital, value: "NaN" }] }]);
      return beacons.map(([what, beacon]) => ({
        what: `beacon ${what}`,
        method: "POST" as const,
        target: "/monitoring",
        as: "anonymous" as const,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(beacon),
      }));
    },
  },
];

function formsOf(site: Site): FormTarget[] {
  const w = `/w/${site.slug}`;
  const p = `${w}/p/${site.key}`;
  const issue = `${p}/issues/${site.issueNumber}`;
  const ids = ["userId", "invitationId", "labelId", "issueId", "commentId", "attachmentId", "version", "position", "assigneeId", "labelIds", "notificationId", "tokenId", "webhookId", "deliveryId"];
  const owner = (path: string, fields: Record<string, string>): FormTarget => ({ path, as: "owner", fields, numeric: ids });
  return [
    { path: "/signup", as: "anonymous", fields: { name: "Eve", email: "eve@example.com", password: "a long enough password", redirectTo: "/w/new", invitation: site.invitationToken } },
    { path: "/login", as: "anonymous", fields: { email: site.ownerEmail, password: site.ownerPassword, redirectTo: "/settings" } },
    { path: "/logout", as: "anonymous", fields: {} },
    { path: "/forgot-password", as: "anonymous", fields: { email: "nobody@example.com" } },
    { path: "/reset-password/not-a-token", as: "anonymous", fields: { password: "another long password" } },
    owner(`/invitations/${site.invitationToken}`, {}),
    owner("/settings?index", { name: "Ada", email: site.ownerEmail, currentPassword: "" }),
    // A wrong current password: nothing here may change the owner's password.
    owner("/settings/password", { currentPassword: "not the password", newPassword: "another long password" }),
    owner("/settings/sessions", {}),
    owner("/w/new", { name: "Beta", slug: "beta" }),
    owner(w, { intent: "leave" }),
    owner(`${w}/settings?index`, { intent: "rename", name: "Acme" }),
    owner(`${w}/settings?index`, { intent: "delete", confirm: "not-the-slug" }),
    owner(`${w}/settings/members`, { intent: "invite", email: "cy@example.com", role: "member" }),
    owner(`${w}/settings/members`, { intent: "change-role", userId: String(site.memberId), role: "admin" }),
    owner(`${w}/settings/members`, { intent: "remove", userId: "2147483647" }),
    owner(`${w}/settings/members`, { intent: "revoke", invitationId: "2147483647" }),
    owner(`${w}/settings/members`, { intent: "resend", invitationId: "2147483647" }),
    owner(`${w}/settings/members`, { intent: "new-link", invitationId: "2147483647" }),
    owner(`${w}/settings/labels`, { intent: "create", name: "Bug", color: "red" }),
    owner(`${w}/settings/labels`, { intent: "update", labelId: String(site.labelId), name: "Defect", color: "blue" }),
    owner(`${w}/settings/labels`, { intent: "delete", labelId: "2147483647" }),
    owner(`${w}/settings/webhooks`, { intent: "create", url: "https://example.com/hooks/cairn", events: "issue.created" }),
    owner(`${w}/settings/webhooks`, { intent: "disable", webhookId: "2147483647" }),
    owner(`${w}/settings/webhooks`, { intent: "delete", webhookId: "2147483647" }),
    owner(`${w}/settings/webhooks`, { intent: "redeliver", deliveryId: "2147483647" }),
    owner(`${w}/projects/new`, { name: "Mobile", key: "MOB", description: "Apps" }),
    owner(`${p}/settings`, { intent: "update", name: "Website", description: "The site" }),
    owner(`${p}/settings`, { intent: "unarchive" }),
    owner(`${p}/issues/new`, { title: "Crash", description: "It crashed", status: "todo", priority: "high", assigneeId: "", labelIds: String(site.labelId), dueDate: "2030-01-31" }),
    owner(issue, {
      intent: "update",
      version: "1",
      title: "Crash on save",
      description: "Steps",
      status: "todo",
      priority: "low",
      assigneeId: String(site.memberId),
      labelIds: String(site.labelId),
      dueDate: "",
    }),
    owner(issue, { intent: "status", version: "1", status: "done" }),
    owner(issue, { intent: "comment", body: "Seen it too" }),
    owner(issue, { intent: "comment", body: "@ada-l @nobody @@ @-x `@ada`" }),
    owner(issue, { intent: "edit-comment", commentId: String(site.commentId), body: "Edited" }),
    owner(issue, { intent: "delete-comment", commentId: "2147483647" }),
    owner(issue, { intent: "watch" }),
    owner(issue, { intent: "unwatch" }),
    owner(issue, { intent: "preview", version: "1", title: "Crash", description: "**Steps**" }),
    owner(issue, { intent: "write", version: "1", title: "Crash", description: "Steps" }),
    owner(`${p}/issues`, { intent: "status", issueId: String(site.issueId), version: "1", status: "in_progress", returnTo: `${p}/issues?q=a` }),
    owner(`${p}/issues`, { intent: "priority", issueId: String(site.issueId), version: "1", priority: "high", returnTo: `${p}/issues?menu=priority-1` }),
    owner(`${p}/issues`, { intent: "assignee", issueId: String(site.issueId), version: "1", assigneeId: String(site.memberId), returnTo: `${p}/issues` }),
    owner(`${p}/issues?select=all`, {
      intent: "bulk",
      issueIds: String(site.issueId),
      status: "in_progress",
      priority: "high",
      assigneeId: String(site.memberId),
      addLabelId: String(site.labelId),
      removeLabelId: "",
    }),
    owner(`${p}/issues/new?parent=${site.key}-${site.issueNumber}`, { title: "Sub-task", parent: `${site.key}-${site.issueNumber}` }),
    owner(issue, { intent: "set-parent", parent: `${site.key}-${site.issueNumber}` }),
    owner(issue, { intent: "add-relation", type: "blocks", target: `${site.key}-${site.issueNumber}` }),
    owner(issue, { intent: "remove-relation", relationId: "2147483647" }),
    // Without a file (a urlencoded form has none), and an attachment that is not there.
    owner(issue, { intent: "attach" }),
    owner(issue, { intent: "delete-attachment", attachmentId: "2147483647" }),
    owner(`${w}/attachments`, { file: "not a file" }),
    owner(`${p}/issues?status=todo&menu=save-view`, { intent: "save-view", name: "Todo", shared: "on", query: "status=todo&sort=priority" }),
    owner(`${p}/views/2147483647`, { intent: "rename", name: "Renamed" }),
    owner(`${p}/views/2147483647`, { intent: "delete" }),
    owner(`${p}/board`, { intent: "move", issueId: String(site.issueId), status: "todo", position: "0" }),
    owner(`${p}/board`, { intent: "move", issueId: String(site.issueId), status: "done", position: "0", returnTo: `${p}/board?show.done=100` }),
    owner("/settings?index", { intent: "profile", name: "Ada", email: site.ownerEmail, timeZone: "Europe/Paris" }),
    owner("/settings?index", { intent: "time-zone", timeZone: "Asia/Tokyo" }),
    owner("/settings?index", { intent: "profile", name: "Ada", email: site.ownerEmail, handle: "ada-l" }),
    owner("/admin/monitoring", { intent: "nothing" }),
    owner("/admin/users", { intent: "reset-link", userId: "2147483647" }),
    owner(`${w}/inbox`, { intent: "read", notificationId: "2147483647" }),
    owner(`${w}/inbox`, { intent: "unread", notificationId: "2147483647" }),
    owner(`${w}/inbox`, { intent: "read-all" }),
    owner("/settings/notifications", { email: "all" }),
    owner("/settings/tokens", { intent: "create", name: "CI", scope: "read", expiresInDays: "30" }),
    owner("/settings/tokens", { intent: "revoke", tokenId: "2147483647" }),
  ];
}

function uploadsOf(site: Site): UploadTarget[] {
  const w = `/w/${site.slug}`;
  const issue = `${w}/p/${site.key}/issues/${site.issueNumber}`;
  return [
    { path: `${w}/p/${site.key}/issues/new`, as: "owner", fields: { title: "With files", description: "See the files" } },
    { path: issue, as: "owner", fields: { intent: "attach" } },
    { path: issue, as: "owner", fields: { intent: "comment", body: "With files" } },
    { path: `${w}/attachments`, as: "owner", fields: {} },
  ];
}

function listsOf(site: Site): ListTarget[] {
  const w = `/w/${site.slug}`;
  const p = `${w}/p/${site.key}`;
  const filters = ["q", "status", "assignee", "label", "priority", "parent", "sort", "page"];
  const filterNumbers = ["assignee", "label", "page"];
  return [
    // `menu` and `confirm` open a row's menu or a question without JavaScript (decision record 010).
    { path: `${p}/issues`, as: "owner", params: [...filters, "menu", "view"], numeric: [...filterNumbers, "view"] },
    { path: `${p}/issues/${site.issueNumber}`, as: "owner", params: ["q", "page", "menu", "confirm", "edit"], numeric: ["page"] },
    { path: `${p}/board`, as: "owner", params: [...filters, "menu", "show.todo", "show.done"], numeric: [...filterNumbers, "show.todo", "show.done"] },
    { path: `${w}/settings`, as: "owner", params: ["confirm"] },
    { path: `${w}/settings/members`, as: "owner", params: ["confirm"] },
    { path: `${w}/settings/labels`, as: "owner", params: ["confirm"] },
    { path: `${w}/settings/webhooks`, as: "owner", params: ["confirm"] },
    { path: `${p}/settings`, as: "owner", params: ["confirm"] },
    { path: "/settings/sessions", as: "owner", params: ["confirm"] },
    { path: "/admin/users", as: "owner", params: ["page"], numeric: ["page"] },
    { path: `${w}/inbox`, as: "owner", params: ["page"], numeric: ["page"] },
    { path: `${p}/issues.csv`, as: "owner", params: filters, numeric: filterNumbers },
    { path: `${w}/search`, as: "owner", params: ["q", "page"], numeric: ["page"] },
    { path: w, as: "owner", params: ["q"] },
    { path: "/admin/monitoring", as: "owner", params: ["digest", "route"] },
    { path: "/login", as: "anonymous", params: ["redirectTo"] },
    { path: "/signup", as: "anonymous", params: ["redirectTo", "invitation"] },
  ];
}

function routesOf(site: Site): RouteTarget[] {
  const base = { workspace: site.slug, key: site.key, number: String(site.issueNumber), digest: site.digest, token: site.invitationToken };
  return [
    { pattern: "/invitations/:token", base, form: {} },
    { pattern: "/w/:workspace", base, form: { intent: "leave" } },
    { pattern: "/w/:workspace/search", base },
    { pattern: "/w/:workspace/settings/labels", base, form: { intent: "delete", labelId: "2147483647" } },
    { pattern: "/w/:workspace/settings/webhooks", base, form: { intent: "delete", webhookId: "2147483647" } },
    { pattern: "/w/:workspace/p/:key/issues", base, form: { intent: "status", issueId: String(site.issueId), version: "1", status: "todo" } },
    { pattern: "/w/:workspace/p/:key/issues/:number", base, form: { intent: "comment", body: "Hello" } },
    { pattern: "/w/:workspace/p/:key/board", base },
    { pattern: "/w/:workspace/p/:key/views/:id", base: { ...base, id: "2147483647" }, form: { intent: "delete" } },
    { pattern: "/w/:workspace/p/:key/issues.csv", base },
    { pattern: "/w/:workspace/p/:key/settings", base, form: { intent: "update", name: "Website", description: "" } },
    { pattern: "/admin/monitoring/:digest", base },
    { pattern: "/w/:workspace/attachments", base, form: { file: "not a file" } },
    { pattern: "/w/:workspace/attachments/:id/:filename", base: { ...base, id: String(site.attachmentId), filename: encodeURIComponent(site.attachmentName) } },
  ];
}

function requestsOf(site: Site): HostileRequest[] {
  const forms = formsOf(site);
  const uploads = uploadsOf(site);
  const lists = listsOf(site);
  const routes = routesOf(site);
  return requestKinds.flatMap((kind) =>
    [
      ...(kind.forForm ? forms.flatMap(kind.forForm) : []),
      ...(kind.forUpload ? uploads.flatMap(kind.forUpload) : []),
      ...(kind.forList ? lists.flatMap(kind.forList) : []),
      ...(kind.forRoute ? routes.flatMap(kind.forRoute) : []),
      ...(kind.forSite ? kind.forSite(site) : []),
    ].map((request) => ({ ...request, kind: kind.name })),
  );
}

/**
 * What a response must never show: a stack trace (in HTML, or in a data request's JSON), SQL or a
 * database's error, or an error's own message. "select" counts only as SQL (the pages have <select>s).
 */
const leaks: [string, RegExp][] = [
  ["a stack trace", / {4}at \S|\bat [\w.<>]+ \(.*:\d+:\d+\)/],
  ["SQL", /\bselect\s+(?:\*|[\w".]+\s*(?:,|\bfrom\b))|\binsert into\b|\bupdate\s+"?\w+"?\s+set\b|\bdelete from\b/i],
  ["a database error", /syntax error|invalid byte sequence|SQLITE_|violates|duplicate key|unterminated|out of range for type/i],
  ["an error message", /\b(?:TypeError|RangeError|SyntaxError|ReferenceError|URIError|ZodError)\b|ERR_[A-Z_]{4,}|Cannot read propert|is not a function|Unexpected token/],
];

type Outcome = { request: HostileRequest; status: number; body: string };

/** One request over a raw HTTP connection, so that any header (or none) and any body can be sent. */
function send(baseUrl: string, cookie: string, apiToken: string, request: HostileRequest): Promise<Outcome> {
  const url = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { ...request.headers };
  if (request.as === "owner") headers.cookie = cookie;
  if (request.as === "token") headers.authorization = `Bearer ${apiToken}`;
  if (request.method === "POST") headers.origin = url.origin;
  if (body) headers["content-length"] = String(body.byteLength);
  // An empty Host means none at all.
  const setHost = headers.host !== "";
  if (!setHost) delete headers.host;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, method: request.method, path: request.target, headers, setHost }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ request, status: response.statusCode!, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    outgoing.on("error", (error) => reject(new Error(`${request.method} ${request.target} (${request.what}): ${error.message}`)));
    outgoing.end(body);
  });
}

/** Sends every request, a few at a time, in order of the list. */
async function sendAll(baseUrl: string, cookie: string, apiToken: string, requests: HostileRequest[], parallel = 4): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      outcomes.push(await send(baseUrl, cookie, apiToken, request));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return outcomes;
}

const at = new Date("2025-05-01T09:00:00.000Z");

it.concurrent.each(testDialects)("no request of odd input gets a 5xx or shows an internal detail, on %s", async (dialect) => {
  const database = await createTestDatabase(dialect);
  // The API's requests all come from one token: over its rate limit they would only be counted.
  const server = await startServer({ ...database.env, API_RATE_LIMIT: "1000000", ATTACHMENT_MAX_BYTES: String(attachmentMaxBytes) });
  const handle = database.open();
  try {
    // The owner is the first account (the instance admin, for /admin) and makes the workspace.
    const owner = new BrowserlessClient(server.url);
    const ownerEmail = "ada@example.com";
    const ownerPassword = "correct horse battery";
    expect((await owner.post("/signup", { name: "Ada", email: ownerEmail, password: ownerPassword })).status).toBe(302);
    expect((await owner.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    const { db } = handle;
    const workspace = await db.selectFrom("workspaces").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow();
    const ownerRow = await db.selectFrom("users").select("id").where("email", "=", ownerEmail).executeTakeFirstOrThrow();
    const memberId = await insertUser(db, { name: "Bo", at });
    await addMember(db, { workspaceId: workspace.id, userId: memberId, role: "member", at });
    const project = await insertProject(db, { workspaceId: workspace.id, key: "WEB", name: "Website", at });
    const label = await db.insertInto("labels").values({ workspace_id: workspace.id, name: "Bug", color: "red", created_at: at.toISOString(), updated_at: at.toISOString() }).returning("id").executeTakeFirstOrThrow();
    const created = await createIssue(db, { project, reporterId: ownerRow.id, fields: issueFields({ title: "Login fails", assigneeId: memberId }), now: at });
    if (!("number" in created)) throw new Error("the issue was not created");
    const issue = await db.selectFrom("issues").select("id").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    await addComment(db, { project, issueId: issue.id, authorId: ownerRow.id, body: "Me too", now: at });
    const comment = await db.selectFrom("comments").select("id").executeTakeFirstOrThrow();
    const files = new FormData();
    files.append("intent", "attach");
    files.append("file", new File(["Steps to reproduce\n"], "steps.txt", { type: "text/plain" }));
    expect((await owner.postMultipart(`/w/acme/p/WEB/issues/${created.number}`, files)).status).toBe(302);
    const attachment = await db.selectFrom("attachments").select(["id", "filename"]).executeTakeFirstOrThrow();
    const invited = await createInvitation(db, { workspaceId: workspace.id, email: "dee@example.com", role: "member", invitedBy: ownerRow.id, actorRole: "owner", now: new Date() });
    if (!invited.ok) throw new Error(invited.message);
    const invitation = await db.selectFrom("invitations").select("id").executeTakeFirstOrThrow();
    // A real error group, so that its page exists.
    const testError = await owner.post("/admin/monitoring", { intent: "test-error" });
    expect(testError.status).toBe(500);
    const digest = /Digest: <code[^>]*>([0-9A-F]{8})<\/code>/.exec(await testError.text())![1]!;
    const token = await createApiToken(db, { userId: ownerRow.id, name: "hostile", scope: "write", expiresInDays: null, now: new Date() });
    if (!token.ok) throw new Error(token.message);

    const site: Site = {
      slug: "acme",
      key: "WEB",
      issueNumber: created.number,
      issueId: issue.id,
      labelId: label.id,
      commentId: comment.id,
      attachmentId: attachment.id,
      attachmentName: attachment.filename,
      memberId,
      invitationId: invitation.id,
      invitationToken: invited.token,
      digest,
      ownerEmail,
      ownerPassword,
      apiToken: token.token,
    };
    const requests = requestsOf(site);
    const outcomes = await sendAll(server.url, owner.cookieHeader(), site.apiToken, requests);

    const figures = (of: Outcome[]) => {
      const statuses = new Map<number, number>();
      for (const { status } of of) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return `${of.length} requests: ${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(" ")}`;
    };
    const byKind = requestKinds.map(({ name }) => `  ${name}: ${figures(outcomes.filter((o) => o.request.kind === name))}`);
    console.info([`hostile input on ${dialect}: ${figures(outcomes)}`, ...byKind].join("\n"));

    const failures: string[] = [];
    for (const { request, status, body } of outcomes) {
      if (status >= 500) failures.push(`${status} ${request.what}`);
      for (const [what, pattern] of leaks) if (pattern.test(body)) failures.push(`${status} ${request.what}: shows ${what}: ${pattern.exec(body)![0]}`);
    }
    expect(failures).toEqual([]);
    // The owner stayed signed in throughout: the actions were reached.
    expect((await owner.get("/settings")).status).toBe(200);
  } finally {
    await handle.db.destroy();
    await server.stop();
    await database.drop();
  }
}, 300_000);
