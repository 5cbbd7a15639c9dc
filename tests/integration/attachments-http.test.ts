/**
 * Attachments over HTTP (issue 17), as a browser without JavaScript sends them: files with a new
 * issue, on an issue (intent=attach) and with a comment, as multipart/form-data; the upload
 * endpoint that JavaScript posts a dropped file to, and the claim of it by the form that links it.
 * How a file is served (its type from its bytes, inline only for PNG, JPEG, GIF and WebP, in a
 * sandbox, cached by id) and to whom (members; 404 to anyone else). The limits: 413 naming them,
 * with what was typed kept; 1 MiB stays the limit of every other route. Deletion, roles, archived
 * projects, and which images show inline. On every database: the bytes are in the rows.
 *
 *   acme:  Ada (owner), Bea (admin), Max (member), Vic (viewer); projects WEB (WEB-1) and OLD.
 *   other: Olga (owner), Bea (member); project OPS (OPS-1).
 *   Small limits, so that the files are small: 64 KiB a file, 384 KiB a workspace.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { storedBytes } from "../support/attachments";
import { BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";
import { gifBytes, hostileHtml, hostileSvg, jpegBytes, pdfBytes, pngBytes, pngHeaderBytes, webpBytes } from "../support/files.js";
import { type RunningServer, startServer } from "../support/server";

const KiB = 1024;
const maxBytes = 64 * KiB;
const workspaceMaxBytes = 384 * KiB;

type Answer = { status: number; location: string | null; headers: Headers; body: string };
type Who = "ada" | "bea" | "max" | "vic" | "olga";

/** The page without its scripts (whose hydration data repeats the loaders' and actions' answers). */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replaceAll("<!-- -->", "");
/** A page's text, as read. */
const said = (page: string) => visible(page).replace(/<[^>]+>/g, "");
const escaped = (text: string) => text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;");

function inputValue(page: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(page)?.[0];
  return input ? /\bvalue="([^"]*)"/.exec(input)?.[1] : undefined;
}
/** The text of the textarea with this id or name (a comment's edit forms have `body` too; the new comment's is `comment-body`). */
const textareaValue = (page: string, name: string) => new RegExp(`<textarea[^>]*\\b(?:id|name)="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(page)?.[1];

/** The issue's Attachments list: each file's name, as its link shows it. */
const attachmentList = (page: string) => [...(/<ul aria-label="Attachments"[^>]*>([\s\S]*?)<\/ul>/.exec(visible(page))?.[1] ?? "").matchAll(/<a href="[^"]+" title="[^"]*"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
/** The address of a file a page links to, by its name. */
function fileUrl(page: string, filename: string): string {
  const url = new RegExp(`href="(/w/[^/"]+/attachments/\\d+/${encodeURIComponent(filename).replace(/[.()]/g, "\\$&")})"`).exec(page)?.[1];
  if (!url) throw new Error(`No link to ${filename}`);
  return url;
}
const idOf = (url: string) => Number(/\/attachments\/(\d+)\//.exec(url)![1]);

const pdf = pdfBytes();
const svg = hostileSvg();
const html = hostileHtml();
/** Bytes that are no known type and not text (a NUL). */
const binary = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919) % 256));

const file = (name: string, bytes: Buffer | string, type = "application/octet-stream") => new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });

function multipart(fields: Record<string, string>, files: File[] = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const one of files) form.append("file", one);
  return form;
}

describe.each(testDialects)("attachments over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  const clients = {} as Record<Who, BrowserlessClient>;

  async function answer(response: Response): Promise<Answer> {
    return { status: response.status, location: response.headers.get("location"), headers: response.headers, body: await response.text() };
  }
  const get = async (path: string, who: Who = "ada") => answer(await clients[who].get(path));
  const post = async (path: string, fields: Record<string, string>, who: Who = "ada") => answer(await clients[who].post(path, fields));
  const send = async (path: string, fields: Record<string, string>, files: File[], who: Who = "ada") => answer(await clients[who].postMultipart(path, multipart(fields, files)));
  function must(got: Answer, status: number, what: string): Answer {
    if (got.status !== status) throw new Error(`${what}: expected ${status}, got ${got.status} ${said(got.body).slice(0, 300)}`);
    return got;
  }
  const signUp = (name: string, email: string) => signUpOverHttp(server.url, name, email);
  const issuePage = (number: number, project = "WEB", workspace = "acme") => `/w/${workspace}/p/${project}/issues/${number}`;
  /** Files a new issue in WEB; answers its page's path. */
  async function fileIssue(title: string, fields: Record<string, string> = {}, files: File[] = [], who: Who = "ada"): Promise<string> {
    return must(await send("/w/acme/p/WEB/issues/new", { title, description: "", ...fields }, files, who), 302, title).location!;
  }
  const row = (id: number) =>
    handle.db.selectFrom("attachments").select(["id", "issue_id", "comment_id", "uploader_id", "filename", "content_type", "size", "width", "height"]).where("id", "=", id).executeTakeFirst();
  const count = async (table: "issues" | "comments" | "attachments" | "labels") => Number((await handle.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n);
  const issueId = async (path: string) => {
    const [, workspace, key, number] = /^\/w\/([^/]+)\/p\/([^/]+)\/issues\/(\d+)$/.exec(path)!;
    const found = await handle.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .innerJoin("workspaces", "workspaces.id", "projects.workspace_id")
      .select("issues.id")
      .where("workspaces.slug", "=", workspace!)
      .where("projects.key", "=", key!)
      .where("issues.number", "=", Number(number))
      .executeTakeFirstOrThrow();
    return found.id;
  };
  /**
   * A form whose file input was left empty, as a browser sends it: a part with `filename=""` and no
   * bytes (fetch's FormData leaves out the filename of a file with no name, which makes it text).
   */
  async function sendWithEmptyFileInput(path: string, fields: Record<string, string>, who: Who = "ada"): Promise<Answer> {
    const boundary = "----CairnTestBoundary7MA4YWxk";
    const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    const empty = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`;
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}`, cookie: clients[who].cookieHeader(), origin: server.url };
    return answer(await fetch(new URL(path, server.url), { method: "POST", redirect: "manual", headers, body: `${parts.join("")}${empty}--${boundary}--\r\n` }));
  }
  /** An upload to the workspace's endpoint (a file dropped into a text box), unclaimed. */
  async function upload(one: File, who: Who = "max", workspace = "acme") {
    const got = must(await send(`/w/${workspace}/attachments`, {}, [one], who), 201, `upload ${one.name}`);
    return JSON.parse(got.body) as { id: number; filename: string; contentType: string; size: number; url: string; markdown: string };
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({ ...database.env, ATTACHMENT_MAX_BYTES: String(maxBytes), ATTACHMENT_WORKSPACE_MAX_BYTES: String(workspaceMaxBytes) });
    handle = database.open();
    clients.ada = await signUp("Ada Owner", "ada@example.com");
    clients.bea = await signUp("Bea Admin", "bea@example.com");
    clients.max = await signUp("Max Member", "max@example.com");
    clients.vic = await signUp("Vic Viewer", "vic@example.com");
    clients.olga = await signUp("Olga Outsider", "olga@example.com");
    must(await post("/w/new", { name: "Acme", slug: "acme" }), 302, "acme");
    must(await post("/w/new", { name: "Other", slug: "other" }, "olga"), 302, "other");
    const users = await handle.db.selectFrom("users").select(["id", "name"]).execute();
    const workspaces = await handle.db.selectFrom("workspaces").select(["id", "slug"]).execute();
    const now = new Date().toISOString();
    for (const [slug, name, role] of [
      ["acme", "Bea Admin", "admin"],
      ["acme", "Max Member", "member"],
      ["acme", "Vic Viewer", "viewer"],
      ["other", "Bea Admin", "member"],
    ] as const) {
      const membership = { workspace_id: workspaces.find((w) => w.slug === slug)!.id, user_id: users.find((u) => u.name === name)!.id, role, created_at: now, updated_at: now };
      await handle.db.insertInto("memberships").values(membership).execute();
    }
    must(await post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" }), 302, "WEB");
    must(await post("/w/acme/projects/new", { name: "Old site", key: "OLD", description: "" }), 302, "OLD");
    must(await post("/w/other/projects/new", { name: "Operations", key: "OPS", description: "" }, "olga"), 302, "OPS");
    must(await post("/w/acme/p/WEB/issues/new", { title: "Login fails" }), 302, "WEB-1");
    must(await post("/w/acme/p/OLD/issues/new", { title: "Old logo" }), 302, "OLD-1");
    must(await post("/w/other/p/OPS/issues/new", { title: "Secret plan" }, "olga"), 302, "OPS-1");
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  describe("sending files without JavaScript (multipart/form-data)", () => {
    it("files a new issue with its files: listed under Attachments, said in its activity, kept in the database", async () => {
      const path = await fileIssue("Upload crash", { description: "See the files." }, [file("screen.png", pngBytes(3, 2), "image/png"), file("report.pdf", pdf, "application/pdf")]);
      const page = must(await get(path), 200, "issue").body;
      expect(attachmentList(page)).toEqual(["screen.png", "report.pdf"]);
      expect(said(page)).toContain("attached screen.png");
      expect(said(page)).toContain("report.pdf");
      // The image has a thumbnail; the PDF an icon.
      const screen = fileUrl(page, "screen.png");
      expect(visible(page)).toContain(`<img src="${screen}" alt="" width="32" height="32"`);
      const stored = await row(idOf(screen));
      expect(stored).toMatchObject({ issue_id: await issueId(path), comment_id: null, filename: "screen.png", content_type: "image/png", size: pngBytes(3, 2).length, width: 3, height: 2 });
      expect((await storedBytes(handle.db, idOf(screen))).equals(pngBytes(3, 2))).toBe(true);
      expect(await row(idOf(fileUrl(page, "report.pdf")))).toMatchObject({ content_type: "application/pdf", width: null, height: null });

      // A file input left empty is no file.
      const attachments = await count("attachments");
      const plain = must(await sendWithEmptyFileInput("/w/acme/p/WEB/issues/new", { title: "No files", description: "" }), 302, "no files").location!;
      expect(attachmentList((await get(plain)).body)).toEqual([]);
      expect(await count("attachments")).toBe(attachments);
    });

    it("attaches files to an issue (intent=attach); an empty file input is no file (400)", async () => {
      must(await send(issuePage(1), { intent: "attach" }, [file("notes.txt", "Steps to reproduce\n", "text/plain"), file("photo.jpg", jpegBytes(4, 3), "image/jpeg")], "max"), 302, "attach");
      const page = (await get(issuePage(1))).body;
      expect(attachmentList(page)).toEqual(["notes.txt", "photo.jpg"]);
      expect(said(page)).toContain("attached notes.txt");
      expect(await row(idOf(fileUrl(page, "photo.jpg")))).toMatchObject({ content_type: "image/jpeg", width: 4, height: 3, comment_id: null });

      const empty = await sendWithEmptyFileInput(issuePage(1), { intent: "attach" }, "max");
      expect(empty.status).toBe(400);
      expect(visible(empty.body)).toContain("Choose files to attach.");
    });

    it("comments with files: shown with the comment, its text kept; files alone make a comment; neither is refused", async () => {
      const before = await count("comments");
      must(await send(issuePage(1), { intent: "comment", body: "Here is the log" }, [file("server.log", "GET / 500\n", "text/plain")], "max"), 302, "comment");
      must(await send(issuePage(1), { intent: "comment", body: "" }, [file("anim.gif", gifBytes(5, 4), "image/gif")], "max"), 302, "files only");
      expect(await count("comments")).toBe(before + 2);
      const page = visible((await get(issuePage(1))).body);
      const comments = page.split('aria-label="Comment by Max Member"').slice(1);
      expect(comments).toHaveLength(2);
      expect(comments[0]).toContain("Here is the log");
      expect(comments[0]).toMatch(/^[^]*?<ul aria-label="Files"[^]*?server\.log/);
      expect(comments[0]).not.toContain("anim.gif");
      expect(comments[1]).toMatch(/<img src="\/w\/acme\/attachments\/\d+\/anim\.gif" alt="anim\.gif" width="5" height="4"/);
      const log = await row(idOf(fileUrl(page, "server.log")));
      expect(log!.comment_id).not.toBeNull();
      expect(log!.issue_id).toBe(await issueId(issuePage(1)));
      // The issue's own list has every file, those of its comments too.
      expect(attachmentList(page)).toEqual(expect.arrayContaining(["server.log", "anim.gif"]));

      const neither = await sendWithEmptyFileInput(issuePage(1), { intent: "comment", body: "" }, "max");
      expect(neither.status).toBe(400);
      expect(visible(neither.body)).toContain("Write a comment.");
      expect(await count("comments")).toBe(before + 2);
    });
  });

  describe("serving a file", () => {
    let path: string;
    let page: string;
    beforeAll(async () => {
      path = await fileIssue("Every kind of file", {}, [
        file("screen.png", pngBytes(3, 2), "image/png"),
        file("photo.jpg", jpegBytes(4, 3), "image/jpeg"),
        file("anim.gif", gifBytes(5, 4), "image/gif"),
        file("pic.webp", webpBytes(6, 5), "image/webp"),
        file("logo.svg", svg, "image/svg+xml"),
        file("page.html", html, "text/html"),
        file("report.pdf", pdf, "application/pdf"),
        file("notes.txt", "Plain text\n", "text/plain"),
        file("data.bin", binary(300)),
        file("cat.png", html, "image/png"),
      ]);
      page = (await get(path)).body;
    });

    it.each([
      ["screen.png", "image/png", "inline"],
      ["photo.jpg", "image/jpeg", "inline"],
      ["anim.gif", "image/gif", "inline"],
      ["pic.webp", "image/webp", "inline"],
      ["logo.svg", "text/plain; charset=utf-8", "attachment"],
      ["page.html", "text/plain; charset=utf-8", "attachment"],
      ["report.pdf", "application/pdf", "attachment"],
      ["notes.txt", "text/plain; charset=utf-8", "attachment"],
      ["data.bin", "application/octet-stream", "attachment"],
    ])("serves %s as %s, %s, sandboxed and cached by id", async (filename, type, disposition) => {
      const url = fileUrl(page, filename);
      const response = await clients.vic.get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("content-disposition")).toBe(`${disposition}; filename=${filename}`);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
      // Only text is worth compressing on the way.
      expect(response.headers.get("cache-control")).toBe(`private, max-age=31536000, immutable${type.startsWith("text/") ? "" : ", no-transform"}`);
      const etag = response.headers.get("etag");
      expect(etag).toBe(`"${idOf(url)}"`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.equals(await storedBytes(handle.db, idOf(url)))).toBe(true);
      // Asked again with its ETag: not sent again.
      const again = await fetch(new URL(url, server.url), { headers: { cookie: clients.vic.cookieHeader(), "if-none-match": etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    });

    it("sandboxes a file whatever spelling of its address the router serves it at", async () => {
      const url = fileUrl(page, "screen.png");
      // node:http sends the path as it is (fetch would resolve the dot segments itself).
      const policy = (path: string) =>
        new Promise<[number, unknown]>((resolve, reject) => {
          const { hostname, port } = new URL(server.url);
          http
            .get({ hostname, port, path, headers: { cookie: clients.vic.cookieHeader() } }, (res) => {
              res.resume();
              resolve([res.statusCode!, res.headers["content-security-policy"]]);
            })
            .on("error", reject);
        });
      for (const path of [url.replace("/attachments/", "/x/../attachments/"), url.replace("/attachments/", "/%2e/Attachments/"), url.replace("/w/", "/W/")]) {
        expect(await policy(path), path).toEqual([200, expect.stringMatching(/^sandbox; default-src 'none'/)]);
      }
    });

    it("serves an HTML page named .png and sent as image/png neither as an image nor as HTML: it downloads, as text", async () => {
      const url = fileUrl(page, "cat.png");
      const response = await clients.ada.get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.headers.get("content-disposition")).toBe("attachment; filename=cat.png");
      expect(response.headers.get("content-security-policy")).toMatch(/^sandbox;/);
      // No thumbnail in the list, and no <img> where a text shows it.
      expect(visible(page)).not.toContain(`<img src="${url}"`);
      must(await send(path, { intent: "comment", body: `![cat](${url})` }, []), 302, "comment");
      const after = visible((await get(path)).body);
      expect(after).not.toContain(`<img src="${url}"`);
      expect(after).toContain(`<a href="${url}" rel="noopener noreferrer nofollow">cat</a>`);
    });

    it("redirects another name of a file to its own address (301); a name that reads as encoded is its own", async () => {
      const url = fileUrl(page, "screen.png");
      for (const other of ["other.png", "SCREEN.PNG", "screen.png%20", "%ff", "a%00b"]) {
        const moved = await get(url.replace(/[^/]+$/, other));
        expect(moved.status, other).toBe(301);
        expect(moved.location, other).toBe(url);
      }
      // A file whose name holds "%2F" (React Router reads that in a parameter as "/").
      const odd = await fileIssue("Odd names", {}, [file("a%2Fb.txt", "x"), file("50% off.txt", "y"), file("日本語 (1).txt", "z")]);
      const oddPage = (await get(odd)).body;
      for (const name of ["a%2Fb.txt", "50% off.txt", "日本語 (1).txt"]) {
        const served = await get(fileUrl(oddPage, name));
        expect(served.status, name).toBe(200);
      }
    });

    it("is 404 to anyone but a member of its workspace: another workspace's member, the signed-out, a wrong address", async () => {
      const url = fileUrl(page, "screen.png");
      const id = idOf(url);
      expect((await get(url, "vic")).status).toBe(200);
      expect((await get(url, "olga")).status).toBe(404);
      // Under her own workspace's address, the file of another is no file either.
      expect((await get(`/w/other/attachments/${id}/screen.png`, "olga")).status).toBe(404);
      // Bea is a member of both: each file under its own workspace only.
      expect((await get(`/w/other/attachments/${id}/screen.png`, "bea")).status).toBe(404);
      expect((await answer(await new BrowserlessClient(server.url).get(url))).status).toBe(404);
      for (const wrong of ["999999", "abc", "0", "-1", "01", "1.5", "2147483648", "99999999999999999999", "%00"]) {
        expect((await get(`/w/acme/attachments/${wrong}/screen.png`)).status, wrong).toBe(404);
      }
      expect((await get(`/w/nope/attachments/${id}/screen.png`)).status).toBe(404);
      expect((await get(`/w/${"x".repeat(300)}/attachments/${id}/screen.png`)).status).toBe(404);
    });
  });

  describe("limits", () => {
    const large = () => file("big.bin", binary(70 * KiB));
    const fileLimit = "Files may be at most 64 KiB each: big.bin is 70 KiB.";

    it("refuses a file over ATTACHMENT_MAX_BYTES with 413 naming the limit; the new issue's title and description are kept", async () => {
      const [issues, attachments] = [await count("issues"), await count("attachments")];
      const refused = await send("/w/acme/p/WEB/issues/new", { title: "Kept title", description: "Kept description,\nline two.", priority: "high" }, [file("ok.txt", "fine"), large()]);
      expect(refused.status).toBe(413);
      const body = visible(refused.body);
      expect(body).toContain(fileLimit);
      expect(inputValue(body, "title")).toBe("Kept title");
      // A browser sends a textarea's line breaks as CRLF, and shows them as line breaks again.
      expect(textareaValue(body, "description")).toMatch(/^Kept description,\r?\nline two\.$/);
      expect(await count("issues")).toBe(issues);
      expect(await count("attachments")).toBe(attachments);
    });

    it("keeps the fields sent after a refused file too: the form is read on past it", async () => {
      const issues = await count("issues");
      // As a browser sends the new-issue form: the file input sits between the description and the parent.
      const form = new FormData();
      form.append("title", "Title before");
      form.append("file", large());
      form.append("description", "Description after the file");
      form.append("parent", "WEB-1");
      const refused = await answer(await clients.ada.postMultipart("/w/acme/p/WEB/issues/new", form));
      expect(refused.status).toBe(413);
      const body = visible(refused.body);
      expect(body).toContain(fileLimit);
      expect(inputValue(body, "title")).toBe("Title before");
      expect(textareaValue(body, "description")).toBe("Description after the file");
      expect(inputValue(body, "parent")).toBe("WEB-1");
      expect(await count("issues")).toBe(issues);
    });

    it("refuses it with a comment (413), the comment's text kept and nothing written; and with intent=attach", async () => {
      const [comments, attachments] = [await count("comments"), await count("attachments")];
      const refused = await send(issuePage(1), { intent: "comment", body: "My kept comment" }, [large()], "max");
      expect(refused.status).toBe(413);
      expect(visible(refused.body)).toContain(fileLimit);
      expect(textareaValue(visible(refused.body), "comment-body")).toBe("My kept comment");
      const attach = await send(issuePage(1), { intent: "attach" }, [large()], "max");
      expect(attach.status).toBe(413);
      expect(visible(attach.body)).toContain(fileLimit);
      // A byte over the limit does not read as the limit ("at most 64 KiB: … is 64 KiB").
      const edge = await send(issuePage(1), { intent: "attach" }, [file("edge.bin", binary(maxBytes + 1))], "max");
      expect(edge.status).toBe(413);
      expect(visible(edge.body)).toContain("Files may be at most 64 KiB each: edge.bin is 65 KiB.");
      const many = await send(issuePage(1), { intent: "attach" }, Array.from({ length: 11 }, (_, i) => file(`f${i}.txt`, "x")), "max");
      expect(many.status).toBe(413);
      expect(visible(many.body)).toContain("Attach at most 10 files at a time.");
      expect([await count("comments"), await count("attachments")]).toEqual([comments, attachments]);
    });

    it("takes a file of exactly ATTACHMENT_MAX_BYTES, and 10 files at once", async () => {
      must(await send(issuePage(1), { intent: "attach" }, [file("at-limit.bin", binary(maxBytes))], "max"), 302, "at the limit");
      must(await send(issuePage(1), { intent: "attach" }, Array.from({ length: 10 }, (_, i) => file(`ten${i}.txt`, "x")), "max"), 302, "ten files");
      expect(attachmentList((await get(issuePage(1))).body)).toEqual(expect.arrayContaining(["at-limit.bin", "ten0.txt", "ten9.txt"]));
    });

    it("refuses files past the workspace's total (ATTACHMENT_WORKSPACE_MAX_BYTES) with 413 naming it, keeping what was typed; a deletion makes room", async () => {
      const filler = Array.from({ length: 6 }, (_, i) => file(`part${i}.bin`, binary(60 * KiB)));
      must(await send(issuePage(1, "OPS", "other"), { intent: "attach" }, filler, "olga"), 302, "fill");
      const total = "This workspace's files may total at most 384 KiB, and 360 KiB are used: there is no room for these.";
      // The workspace's settings show the room taken, to every member.
      const settings = said((await get("/w/other/settings", "bea")).body);
      expect(settings).toContain("360 KiB of 384 KiB used · 6 files");
      expect(settings).toContain("Each file may be at most 64 KiB.");
      const more = () => file("more.bin", binary(30 * KiB));
      const issue = await send("/w/other/p/OPS/issues/new", { title: "Quota title", description: "Quota description" }, [more()], "olga");
      expect(issue.status).toBe(413);
      expect(visible(issue.body)).toContain(escaped(total));
      expect(inputValue(visible(issue.body), "title")).toBe("Quota title");
      const comment = await send(issuePage(1, "OPS", "other"), { intent: "comment", body: "Quota comment" }, [more()], "olga");
      expect(comment.status).toBe(413);
      expect(textareaValue(visible(comment.body), "comment-body")).toBe("Quota comment");
      const attach = await send(issuePage(1, "OPS", "other"), { intent: "attach" }, [more()], "olga");
      expect(attach.status).toBe(413);
      expect(visible(attach.body)).toContain(escaped(total));
      const dropped = await send("/w/other/attachments", {}, [more()], "olga");
      expect(dropped.status).toBe(413);
      expect(JSON.parse(dropped.body)).toEqual({ error: total });
      // Other workspaces have their own total.
      must(await send(issuePage(1), { intent: "attach" }, [file("room.bin", binary(30 * KiB))], "max"), 302, "acme has room");

      const page = (await get(issuePage(1, "OPS", "other"), "olga")).body;
      must(await post(issuePage(1, "OPS", "other"), { intent: "delete-attachment", attachmentId: String(idOf(fileUrl(page, "part0.bin"))) }, "olga"), 302, "delete");
      must(await send(issuePage(1, "OPS", "other"), { intent: "attach" }, [more()], "olga"), 302, "room again");
    });

    it("refuses a body over the uploads' cap (10 files at the limit, and 1 MiB) with 413, naming the limit", async () => {
      const attachments = await count("attachments");
      const refused = await send(issuePage(1), { intent: "attach" }, [file("huge.bin", binary(2 * 1024 * KiB))], "max");
      expect(refused.status).toBe(413);
      expect(refused.body).toContain("That is too large. Files may be at most 64 KiB each, 10 at a time.");
      const dropped = await send("/w/acme/attachments", {}, [file("huge.bin", binary(2 * 1024 * KiB))], "max");
      expect(dropped.status).toBe(413);
      expect(await count("attachments")).toBe(attachments);
    });

    it("keeps 1 MiB for every other route: 2 MiB to the labels form, the sign-in form, the list, multipart or not, is 413", async () => {
      const labels = await count("labels");
      const padding = "x".repeat(2 * 1024 * KiB);
      const attempts: [string, Answer][] = [
        ["labels", await post("/w/acme/settings/labels", { intent: "create", name: "Big", color: "red", padding })],
        ["labels, multipart", await send("/w/acme/settings/labels", { intent: "create", name: "Big", color: "red" }, [file("big.bin", binary(2 * 1024 * KiB))])],
        ["labels, multipart text", await send("/w/acme/settings/labels", { intent: "create", name: "Big", color: "red", padding }, [])],
        ["project settings, multipart", await send("/w/acme/p/WEB/settings", { intent: "update", name: "Website", description: padding }, [])],
        ["the list, multipart", await send("/w/acme/p/WEB/issues", { intent: "status", issueId: "1", version: "1", status: "todo", padding }, [])],
        ["an issue, urlencoded", await post(issuePage(1), { intent: "comment", body: padding })],
        ["a new issue, urlencoded", await post("/w/acme/p/WEB/issues/new", { title: "Big", description: padding })],
        ["uploads, urlencoded", await post("/w/acme/attachments", { file: padding })],
        ["the sign-in form", await answer(await new BrowserlessClient(server.url).post("/login", { email: "ada@example.com", password: padding }))],
        ["the sign-in form, multipart", await answer(await new BrowserlessClient(server.url).postMultipart("/login", multipart({ email: "ada@example.com", password: padding })))],
      ];
      for (const [what, refused] of attempts) {
        expect(refused.status, what).toBe(413);
        expect(refused.body, what).toContain("That is too large. Requests may be at most 1 MiB.");
      }
      expect(await count("labels")).toBe(labels);
    });
  });

  describe("deleting a file", () => {
    let path: string;
    beforeAll(async () => {
      path = await fileIssue("Files to delete", {}, [file("ada.txt", "Ada's"), file("ada2.txt", "Ada's too")]);
      must(await send(path, { intent: "attach" }, [file("max.txt", "Max's")], "max"), 302, "max's");
    });
    const idIn = async (filename: string) => idOf(fileUrl((await get(path)).body, filename));
    const remove = async (attachmentId: number | string, who: Who) => post(path, { intent: "delete-attachment", attachmentId: String(attachmentId) }, who);

    it("asks first (without JavaScript, on the page), then the uploader deletes it: row, bytes and address gone", async () => {
      const id = await idIn("max.txt");
      const url = fileUrl((await get(path)).body, "max.txt");
      const asked = visible((await get(`${path}?confirm=delete-attachment-${id}`, "max")).body);
      expect(asked).toContain('role="alertdialog"');
      expect(asked).toContain("Delete max.txt?");
      expect(asked).toContain(`name="attachmentId" value="${id}"`);
      must(await remove(id, "max"), 302, "delete");
      expect(await row(id)).toBeUndefined();
      expect((await get(url, "max")).status).toBe(404);
      const page = (await get(path)).body;
      expect(attachmentList(page)).not.toContain("max.txt");
      expect(said(page)).toContain("removed the attachment max.txt");
    });

    it("lets an admin delete another's file; a member gets 403 for another's", async () => {
      const id = await idIn("ada.txt");
      const refused = await remove(id, "max");
      expect(refused.status).toBe(403);
      expect(visible(refused.body)).toContain("You don&#x27;t have permission to do that.");
      expect(await row(id)).toBeDefined();
      // Max sees no delete button for it.
      expect(visible((await get(path, "max")).body)).not.toContain(`name="attachmentId" value="${id}"`);
      must(await remove(id, "bea"), 302, "admin deletes");
      expect(await row(id)).toBeUndefined();
    });

    it("refuses a viewer (403) and an outsider (404); an unknown, foreign or odd id is 404 or 400", async () => {
      const id = await idIn("ada2.txt");
      expect((await remove(id, "vic")).status).toBe(403);
      expect((await remove(id, "olga")).status).toBe(404);
      expect(visible((await get(path, "vic")).body)).not.toContain('name="attachmentId"');
      // A file of another issue, through this one; and one of another workspace.
      const onWeb1 = idOf(fileUrl((await get(issuePage(1))).body, "notes.txt"));
      const opsFile = idOf(fileUrl((await get(issuePage(1, "OPS", "other"), "olga")).body, "part1.bin"));
      for (const other of [onWeb1, opsFile, 2147483647]) expect((await remove(other, "ada")).status, String(other)).toBe(404);
      for (const odd of ["abc", "0", "-1", "2147483648", ""]) expect((await remove(odd, "ada")).status, odd).toBe(400);
      expect(await row(id)).toBeDefined();
      expect(await row(onWeb1)).toBeDefined();
      expect(await row(opsFile)).toBeDefined();
    });
  });

  describe("who may send files", () => {
    it("lets a viewer read files but not send them (403), and an outsider neither (404)", async () => {
      const before = await count("attachments");
      const one = () => file("v.txt", "viewer's");
      expect((await send(issuePage(1), { intent: "attach" }, [one()], "vic")).status).toBe(403);
      expect((await send(issuePage(1), { intent: "comment", body: "Hi" }, [one()], "vic")).status).toBe(403);
      expect((await send("/w/acme/p/WEB/issues/new", { title: "Viewer's" }, [one()], "vic")).status).toBe(403);
      expect((await send("/w/acme/attachments", {}, [one()], "vic")).status).toBe(403);
      expect((await send(issuePage(1), { intent: "attach" }, [one()], "olga")).status).toBe(404);
      expect((await send("/w/acme/p/WEB/issues/new", { title: "Outsider's" }, [one()], "olga")).status).toBe(404);
      expect((await send("/w/acme/attachments", {}, [one()], "olga")).status).toBe(404);
      const signedOut = await answer(await new BrowserlessClient(server.url).postMultipart("/w/acme/attachments", multipart({}, [one()])));
      expect(signedOut.status).toBe(302);
      expect(signedOut.location).toMatch(/^\/login\?redirectTo=/);
      expect(await count("attachments")).toBe(before);
      // The viewer's page lists the files, with no form to attach more.
      const page = visible((await get(issuePage(1), "vic")).body);
      expect(attachmentList(page)).toContain("notes.txt");
      expect(page).not.toContain('value="attach"');
      expect(page).not.toContain('type="file"');
    });

    it("keeps an archived project's files: served, but neither attached nor deleted (403)", async () => {
      const old = issuePage(1, "OLD");
      must(await send(old, { intent: "attach" }, [file("old-logo.png", pngBytes(2, 2), "image/png")]), 302, "attach");
      const url = fileUrl((await get(old)).body, "old-logo.png");
      must(await post("/w/acme/p/OLD/settings", { intent: "archive" }), 302, "archive");
      expect((await send(old, { intent: "attach" }, [file("late.txt", "late")])).status).toBe(403);
      expect((await send(old, { intent: "comment", body: "Late" }, [file("late.txt", "late")])).status).toBe(403);
      expect((await post(old, { intent: "delete-attachment", attachmentId: String(idOf(url)) })).status).toBe(403);
      expect((await get(url, "vic")).status).toBe(200);
      const page = visible((await get(old)).body);
      expect(attachmentList(page)).toEqual(["old-logo.png"]);
      expect(page).not.toContain('value="attach"');
      expect(page).not.toContain('name="attachmentId"');
      expect(await row(idOf(url))).toBeDefined();
    });
  });

  describe("files dropped into a text box (the upload endpoint, with JavaScript)", () => {
    it("keeps a file and answers 201 with its address and the Markdown that shows it", async () => {
      const image = await upload(file("drop.png", pngBytes(3, 2), "image/png"));
      expect(image).toEqual({ id: expect.any(Number), filename: "drop.png", contentType: "image/png", size: pngBytes(3, 2).length, url: `/w/acme/attachments/${image.id}/drop.png`, markdown: `![drop.png](/w/acme/attachments/${image.id}/drop.png)` });
      const text = await upload(file("a [draft].txt", "draft"));
      expect(text.markdown).toBe(`[a \\[draft\\].txt](/w/acme/attachments/${text.id}/a%20%5Bdraft%5D.txt)`);
      expect(await row(image.id)).toMatchObject({ issue_id: null, comment_id: null });
      // Unclaimed, it is served to the workspace's members all the same.
      expect((await get(image.url, "vic")).status).toBe(200);
    });

    it("answers its refusals as JSON: 400 for no file or two, 413 over the limit", async () => {
      for (const [what, files] of [
        ["no file", []],
        ["two files", [file("a.txt", "a"), file("b.txt", "b")]],
      ] as const) {
        const refused = await send("/w/acme/attachments", { other: "field" }, [...files], "max");
        expect(refused.status, what).toBe(400);
        expect(refused.headers.get("content-type"), what).toMatch(/^application\/json/);
        expect(JSON.parse(refused.body).error, what).toMatch(/^(Send one file\.|Choose files to attach\.)$/);
      }
      const empty = await sendWithEmptyFileInput("/w/acme/attachments", {}, "max");
      expect(empty.status).toBe(400);
      expect(JSON.parse(empty.body)).toEqual({ error: "Send one file." });
      const large = await send("/w/acme/attachments", {}, [file("big.bin", binary(70 * KiB))], "max");
      expect(large.status).toBe(413);
      expect(JSON.parse(large.body)).toEqual({ error: "Files may be at most 64 KiB each: big.bin is 70 KiB." });
      // A form that is not multipart.
      expect((await post("/w/acme/attachments", { file: "not a file" }, "max")).status).toBe(400);
      expect((await get("/w/acme/attachments", "max")).status).toBe(404);
    });

    it("writes Markdown that survives parentheses and brackets in a name: shown inline, linked, no text left over", async () => {
      const smile = await upload(file("smile :).png", pngBytes(3, 2), "image/png"));
      const open = await upload(file("a(b [c].txt", "x"));
      expect(smile.markdown).toBe(`![smile :).png](/w/acme/attachments/${smile.id}/smile%20%3A%29.png)`);
      const path = await fileIssue("Parentheses", { description: `${smile.markdown}\n\n${open.markdown}` }, [], "max");
      const page = visible((await get(path)).body);
      const shown = /<section aria-label="Description"[\s\S]*?<\/section>/.exec(page)![0];
      expect(shown).toContain(`<img src="/w/acme/attachments/${smile.id}/smile%20%3A%29.png" alt="smile :).png"`);
      expect(shown).toMatch(new RegExp(`<a href="/w/acme/attachments/${open.id}/a%28b%20%5Bc%5D.txt"[^>]*>a\\(b \\[c\\]\\.txt</a>`));
      expect(said(shown)).not.toContain(".png)");
      expect(attachmentList(page)).toEqual(["smile :).png", "a(b [c].txt"]);
      expect((await get(`/w/acme/attachments/${smile.id}/smile%20%3A%29.png`)).status).toBe(200);
    });

    it("gives a new issue the files its description links: listed in its Attachments, shown inline", async () => {
      const shot = await upload(file("shot.png", pngBytes(3, 2), "image/png"));
      const doc = await upload(file("spec.pdf", pdf, "application/pdf"));
      const path = await fileIssue("With dropped files", { description: `Look:\n\n${shot.markdown}\n\nand ${doc.markdown}` }, [], "max");
      const page = (await get(path)).body;
      expect(attachmentList(page)).toEqual(["shot.png", "spec.pdf"]);
      expect(said(page)).toContain("attached shot.png");
      expect(visible(page)).toContain(`<img src="${shot.url}" alt="shot.png" loading="lazy" decoding="async" width="3" height="2">`);
      expect(await row(shot.id)).toMatchObject({ issue_id: await issueId(path), comment_id: null });
      expect(await row(doc.id)).toMatchObject({ issue_id: await issueId(path) });
    });

    it("gives a comment the files its text links, and an edited description those it adds", async () => {
      const log = await upload(file("trace.txt", "trace"));
      must(await post(issuePage(1), { intent: "comment", body: `The trace: ${log.markdown}` }, "max"), 302, "comment");
      const claimed = await row(log.id);
      expect(claimed).toMatchObject({ issue_id: await issueId(issuePage(1)) });
      expect(claimed!.comment_id).not.toBeNull();

      const path = await fileIssue("Edited later", {}, [], "max");
      const later = await upload(file("later.gif", gifBytes(5, 4), "image/gif"));
      const version = /name="version" value="(\d+)"/.exec((await get(path, "max")).body)![1]!;
      must(await post(path, { intent: "update", version, title: "Edited later", description: later.markdown }, "max"), 302, "edit");
      expect(attachmentList((await get(path)).body)).toEqual(["later.gif"]);
    });

    it("never claims someone else's upload, nor one of another workspace, linked in my text", async () => {
      const maxs = await upload(file("maxs.png", pngBytes(2, 2), "image/png"), "max");
      const beas = await upload(file("beas.png", pngBytes(2, 2), "image/png"), "bea", "other");
      const description = [maxs.markdown, `![beas](/w/acme/attachments/${beas.id}/beas.png)`, `![beas](${beas.url})`].join("\n\n");
      const path = await fileIssue("Not mine", { description }, [], "bea");
      must(await post(path, { intent: "comment", body: maxs.markdown }, "bea"), 302, "comment");
      expect(attachmentList((await get(path)).body)).toEqual([]);
      expect(await row(maxs.id)).toMatchObject({ issue_id: null, comment_id: null });
      expect(await row(beas.id)).toMatchObject({ issue_id: null, comment_id: null });
      // Max's own form still claims it.
      const his = await fileIssue("Mine", { description: maxs.markdown }, [], "max");
      expect(attachmentList((await get(his)).body)).toEqual(["maxs.png"]);
    });
  });

  describe("an image too large to preview (over 50 megapixels)", () => {
    // 50,000×50,000: 2.5 gigapixels (10 GB to decode) in a few bytes of PNG header.
    const bomb = () => file("huge.png", pngHeaderBytes(50_000, 50_000), "image/png");
    /** No <img> of it, and its dimensions nowhere in the page (not in an attribute, not in the page's data). */
    function expectNoPreview(page: string, url: string) {
      expect(page).not.toContain(`<img src="${url}"`);
      expect(page).not.toMatch(/\b50000\b|50,000/);
    }

    it("is a link in a description, dropped or written as an image, with its size and why it does not show", async () => {
      const dropped = await upload(bomb());
      // The Markdown a drop inserts links it rather than showing it.
      expect(dropped.markdown).toBe(`[huge.png](${dropped.url})`);
      const path = await fileIssue("A huge screenshot", { description: `${dropped.markdown}\n\n![written as an image](${dropped.url})` }, [], "max");
      const page = (await get(path)).body;
      expectNoPreview(page, dropped.url);
      const shown = /<section aria-label="Description"[\s\S]*?<\/section>/.exec(visible(page))![0];
      expect(shown).toContain(`<a href="${dropped.url}" rel="noopener noreferrer nofollow">huge.png</a>`);
      expect(said(shown)).toContain("written as an image (image too large to preview, 33 bytes)");
      // Listed under Attachments with an icon, not a thumbnail.
      expect(attachmentList(page)).toEqual(["huge.png"]);
      expect(said(page)).toContain("too large to preview");
      // Opened on its own, it downloads: no tab decodes it.
      const served = await clients.max.get(dropped.url);
      expect(served.headers.get("content-disposition")).toBe("attachment; filename=huge.png");
      expect(served.headers.get("content-type")).toBe("image/png");
    });

    it("is a link as a comment's file, with its size and why it does not show", async () => {
      const path = await fileIssue("A huge comment file", {}, [], "max");
      must(await send(path, { intent: "comment", body: "" }, [bomb()], "max"), 302, "comment");
      const page = (await get(path)).body;
      const url = fileUrl(page, "huge.png");
      expectNoPreview(page, url);
      const comment = visible(page).split('aria-label="Comment by Max Member"')[1]!;
      expect(comment).toMatch(new RegExp(`<ul aria-label="Files"[^]*?<a href="${url}"[^>]*>[^]*?huge\\.png[^]*?33 bytes[^]*?too large to preview`));
    });

    it("shows an image of 50 megapixels, at its size", async () => {
      const path = await fileIssue("Large but fine", {}, [], "max");
      must(await send(path, { intent: "comment", body: "" }, [file("tall.jpg", jpegBytes(5_000, 10_000), "image/jpeg")], "max"), 302, "comment");
      const page = visible((await get(path)).body);
      const url = fileUrl(page, "tall.jpg");
      expect(page).toContain(`<img src="${url}" alt="tall.jpg" width="5000" height="10000"`);
    });
  });

  it("shows this workspace's images inline; another workspace's attachment, a non-image or another host's image stays a link", async () => {
    const ours = await upload(file("ours.png", pngBytes(3, 2), "image/png"));
    const doc = await upload(file("doc.pdf", pdf, "application/pdf"));
    const theirs = await upload(file("theirs.png", pngBytes(2, 2), "image/png"), "olga", "other");
    const description = [
      `![ours](${ours.url})`,
      `![doc](${doc.url})`,
      `![theirs](${theirs.url})`,
      `![theirs here](/w/acme/attachments/${theirs.id}/theirs.png)`,
      "![remote](https://example.com/cat.png)",
    ].join("\n\n");
    const path = await fileIssue("Inline images", { description }, [], "max");
    const page = visible((await get(path)).body);
    const shown = /<section aria-label="Description"[\s\S]*?<\/section>/.exec(page)![0];
    expect(shown).toContain(`<a href="${ours.url}" class="attachment-image"><img src="${ours.url}" alt="ours" loading="lazy" decoding="async" width="3" height="2"></a>`);
    expect(shown.match(/<img /g)).toHaveLength(1);
    for (const [text, src] of [
      ["doc", doc.url],
      ["theirs", theirs.url],
      ["theirs here", `/w/acme/attachments/${theirs.id}/theirs.png`],
      ["remote", "https://example.com/cat.png"],
    ]) {
      expect(shown).toContain(`<a href="${src}" rel="noopener noreferrer nofollow">${text}</a>`);
    }
    // The same in a comment.
    must(await post(path, { intent: "comment", body: `![ours](${ours.url}) ![remote](https://example.com/cat.png)` }, "max"), 302, "comment");
    const comment = /<div class="prose-issue comment-body">([\s\S]*?)<\/div>/.exec(visible((await get(path)).body))![1]!;
    expect(comment).toContain(`<img src="${ours.url}" alt="ours"`);
    expect(comment).not.toContain('<img src="https://');
  });
});
