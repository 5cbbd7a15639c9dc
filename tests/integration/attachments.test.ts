/**
 * Attachments (app/attachments/attachments.server.ts, decision record 024) on both databases: files
 * kept with their bytes and the type found in them, all or none of a form's files, the limits (each
 * file, ten at a time, the workspace's total — also when two uploads race for the room left), files
 * dropped into a text box and claimed by the form that links them (only one's own, of this
 * workspace, once), deletion by the uploader or an admin, serving to members only, inline images,
 * the daily clean-up of unclaimed uploads, and the activity and webhooks a change reaches.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import {
  attachFiles,
  attachmentUsage,
  claimAttachments,
  deleteAttachment,
  deleteUnclaimedAttachments,
  findInlineImages,
  findServedAttachment,
  uploadUnclaimed,
} from "~/attachments/attachments.server";
import type { AttachmentLimits } from "~/config/env.server";
import { type Database, type DatabaseHandle, sqliteFileName } from "~/db/database.server";
import { lockKeys } from "~/db/key-locks.server";
import { addComment } from "~/comments/comments.server";
import { createIssue, findIssueDetail } from "~/issues/issues.server";
import type { ProjectScope } from "~/issues/write-scope.server";
import { deleteWorkspace } from "~/workspaces/workspaces.server";
import { storedBytes } from "../support/attachments";
import { testDialects, type TestDatabase, waitForLockWaiters } from "../support/databases";
import { hostileHtml, pngBytes } from "../support/files.js";
import { issueFields } from "../support/issues";
import { withMigratedDatabase } from "../support/migrated-database";
import { emptyWorkspaceTables, seedTestWorkspace } from "../support/workspaces";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 9, minute));
const limits: AttachmentLimits = { maxBytes: 64 * 1024, workspaceMaxBytes: 200 * 1024 };
const file = (bytes: Uint8Array | string, name: string, type = "") => new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });
const sized = (size: number, name = "data.bin") => file(new Uint8Array(size).fill(7), name);

describe.each(testDialects)("attachments on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let web: ProjectScope;
  let acmeSlug: string;
  let globexId: number;
  let ops: ProjectScope;
  let ada: number;
  let grace: number;
  let olga: number;
  let issueId: number;

  withMigratedDatabase(dialect, (opened) => ({ handle, db, database } = opened));

  beforeEach(async () => {
    await db.deleteFrom("webhook_deliveries").execute();
    await db.deleteFrom("webhooks").execute();
    await emptyWorkspaceTables(db);
    const acme = await seedTestWorkspace(db, { slug: "acme", at: at(0), members: { Ada: "admin", Grace: "member" }, projects: { WEB: "Website" } });
    ({ Ada: ada, Grace: grace } = acme.users);
    web = acme.projects.WEB;
    acmeSlug = "acme";
    const globex = await seedTestWorkspace(db, { slug: "globex", at: at(0), members: { Olga: "owner" }, projects: { OPS: "Operations" } });
    globexId = globex.id;
    olga = globex.users.Olga;
    ops = globex.projects.OPS;
    issueId = await fileIssue(web, "Login page is blank");
  });

  async function fileIssue(project: ProjectScope, title: string): Promise<number> {
    const created = await createIssue(db, { project, reporterId: ada, fields: issueFields({ title }), now: at(1) });
    if (!("number" in created)) throw new Error("not filed");
    return (await db.selectFrom("issues").select("id").where("project_id", "=", project.id).where("number", "=", created.number).executeTakeFirstOrThrow()).id;
  }

  /** Runs `race` while another connection holds `key` (lockKeys), until `waiters` of its transactions wait for it. */
  async function whileKeyHeld<T>(key: string, race: () => Promise<T>, waiters: number): Promise<T> {
    const other = database.open();
    const watcher = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await watcher.connect();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    try {
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = other.db.transaction().execute(async (trx) => {
        await lockKeys(trx, "postgres", [key]);
        locked();
        await released;
      });
      await isLocked;
      const racing = race();
      await waitForLockWaiters(watcher, waiters);
      release();
      await holder;
      return await racing;
    } finally {
      release();
      await watcher.end();
      await other.db.destroy();
    }
  }

  const attach = (files: File[], values: { project?: ProjectScope; issueId?: number; commentId?: number; uploaderId?: number; limits?: AttachmentLimits } = {}) =>
    attachFiles(handle, { project: web, issueId, uploaderId: grace, files, limits, now: at(5), ...values });
  const rows = () => db.selectFrom("attachments").select(["id", "issue_id", "comment_id", "uploader_id", "filename", "content_type", "size", "width", "height"]).orderBy("id").execute();
  const bytesOf = (id: number) => storedBytes(db, id);
  const activity = async () =>
    (await db.selectFrom("activities").select(["kind", "from_value", "to_value"]).where("issue_id", "=", issueId).where("kind", "!=", "created").orderBy("id").execute()).map(
      (row) => [row.kind, row.from_value, row.to_value],
    );
  const version = async () => (await db.selectFrom("issues").select("version").where("id", "=", issueId).executeTakeFirstOrThrow()).version;
  const upload = (name: string, uploaderId = grace, workspaceId = web.workspace_id, bytes: Uint8Array = pngBytes(4, 3)) =>
    uploadUnclaimed(handle, { workspaceId, uploaderId, file: file(bytes, name), limits, now: at(3) });

  describe("attachFiles", () => {
    it("keeps each file's bytes under the type found in them, with an image's size, and says so in the activity", async () => {
      const png = pngBytes(40, 30);
      const attached = await attach([file(png, "screen.png", "image/png"), file(hostileHtml(), "cat.png", "image/png"), file("a,b\n1,2\n", "data.csv", "text/csv")]);
      expect(attached).toMatchObject({ ok: true, attachments: [{ filename: "screen.png" }, { filename: "cat.png" }, { filename: "data.csv" }] });
      const kept = await rows();
      expect(kept.map(({ filename, content_type, size, width, height, uploader_id, issue_id, comment_id }) => ({ filename, content_type, size, width, height, uploader_id, issue_id, comment_id }))).toEqual([
        { filename: "screen.png", content_type: "image/png", size: png.length, width: 40, height: 30, uploader_id: grace, issue_id: issueId, comment_id: null },
        // An HTML page named .png and sent as image/png is text, which only downloads.
        { filename: "cat.png", content_type: "text/plain; charset=utf-8", size: hostileHtml().length, width: null, height: null, uploader_id: grace, issue_id: issueId, comment_id: null },
        { filename: "data.csv", content_type: "text/plain; charset=utf-8", size: 8, width: null, height: null, uploader_id: grace, issue_id: issueId, comment_id: null },
      ]);
      expect(Buffer.compare(await bytesOf(kept[0]!.id), png)).toBe(0);
      expect(await activity()).toEqual([
        ["attachment", null, "screen.png"],
        ["attachment", null, "cat.png"],
        ["attachment", null, "data.csv"],
      ]);
      // A file is not one of the issue's fields: an edit opened before it still saves without a conflict.
      expect(await version()).toBe(1);
      // The issue page's one query lists them, without their bytes.
      const detail = await findIssueDetail(db, web.id, 1, ada);
      expect(detail!.attachments.map((a) => [a.filename, a.uploaderName, a.size])).toEqual([
        ["screen.png", "Grace", png.length],
        ["cat.png", "Grace", hostileHtml().length],
        ["data.csv", "Grace", 8],
      ]);
    });

    it("attaches files with a comment without an activity line of their own: the comment shows them", async () => {
      const added = await addComment(db, { project: web, issueId, authorId: grace, body: "Here it is", now: at(4) });
      if (!added.ok) throw new Error("no comment");
      expect(await attach([sized(10, "log.txt")], { commentId: added.commentId })).toMatchObject({ ok: true });
      expect((await rows()).map((r) => r.comment_id)).toEqual([added.commentId]);
      expect(await activity()).toEqual([]);
    });

    it("refuses files over the limit, more than ten, or none, before anything is kept", async () => {
      expect(await attach([sized(10), sized(limits.maxBytes + 1, "huge.bin")])).toEqual({ ok: false, status: 413, message: "Files may be at most 64 KiB each: huge.bin is 65 KiB." });
      expect(await attach(Array.from({ length: 11 }, () => sized(1)))).toMatchObject({ ok: false, status: 413 });
      expect(await attach([])).toEqual({ ok: false, status: 400, message: "Choose files to attach." });
      expect(await rows()).toEqual([]);
      expect(await activity()).toEqual([]);
    });

    it("refuses an issue of another project, or of another workspace, as not found", async () => {
      const theirs = await fileIssue(ops, "Their issue");
      expect(await attach([sized(10)], { issueId: theirs })).toEqual({ ok: false, status: 404, message: "Issue not found." });
      expect(await attach([sized(10)], { project: ops })).toEqual({ ok: false, status: 404, message: "Issue not found." });
      expect(await rows()).toEqual([]);
    });

    it("keeps the workspace's total: a form that would pass it is refused whole (413, the limit named), another workspace's files do not count", async () => {
      const small: AttachmentLimits = { maxBytes: 64 * 1024, workspaceMaxBytes: 100 };
      await uploadUnclaimed(handle, { workspaceId: globexId, uploaderId: olga, file: sized(90), limits: small, now: at(2) });
      expect(await attach([sized(60), sized(40)], { limits: small })).toMatchObject({ ok: true });
      expect(await attachmentUsage(db, web.workspace_id)).toEqual({ bytes: 100, files: 2 });
      expect(await attach([sized(1)], { limits: small })).toEqual({
        ok: false,
        status: 413,
        message: "This workspace's files may total at most 100 bytes, and 100 bytes are used: there is no room for these.",
      });
      expect(await attachmentUsage(db, web.workspace_id)).toEqual({ bytes: 100, files: 2 });
    });

    it("lets only one of several uploads racing for the room left for one through", async () => {
      const room: AttachmentLimits = { maxBytes: 64 * 1024, workspaceMaxBytes: 1000 };
      // Different issues and text boxes, so that nothing but the workspace's total makes them take turns.
      const other = await fileIssue(web, "Another");
      const race = () =>
        Promise.all([
          attach([sized(600, "a.bin")], { limits: room }),
          attach([sized(600, "b.bin")], { limits: room, issueId: other, uploaderId: ada }),
          ...["c.bin", "d.bin"].map((name) => uploadUnclaimed(handle, { workspaceId: web.workspace_id, uploaderId: grace, file: sized(600, name), limits: room, now: at(3) })),
        ]);
      // On PostgreSQL all four are made to arrive together: they queue behind the workspace's key,
      // held here, instead of each reading the total before another's insert is committed.
      const results = dialect === "postgres" ? await whileKeyHeld(`attachments:${web.workspace_id}`, race, 4) : await race();
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(await attachmentUsage(db, web.workspace_id)).toEqual({ bytes: 600, files: 1 });
    });

    it("reaches the workspace's webhooks as issue.updated with the files added and removed", async () => {
      const now = at(0).toISOString();
      await db
        .insertInto("webhooks")
        .values({ workspace_id: web.workspace_id, url: "https://example.com/hook", events: "[]", secret: "whsec_test", created_by: ada, created_at: now, updated_at: now })
        .execute();
      const attached = await attach([sized(5, "a.txt")]);
      if (!attached.ok) throw new Error("not attached");
      const { id } = attached.attachments[0]!;
      await deleteAttachment(db, { project: web, issueId, attachmentId: id, actorId: ada, canDeleteAny: true, now: at(6) });
      const deliveries = await db.selectFrom("webhook_deliveries").select(["type", "payload"]).orderBy("id").execute();
      expect(deliveries.map((d) => [d.type, (JSON.parse(d.payload) as { data: { changes: unknown } }).data.changes])).toEqual([
        ["issue.updated", { attachments: { added: [{ id, filename: "a.txt" }], removed: [] } }],
        ["issue.updated", { attachments: { added: [], removed: [{ id, filename: "a.txt" }] } }],
      ]);
    });
  });

  describe("files dropped into a text box", () => {
    it("keeps an upload for no issue until the form that links it claims it, once, with the activity", async () => {
      const uploaded = await upload("shot.png");
      if (!uploaded.ok) throw new Error("not uploaded");
      expect(uploaded.attachment).toMatchObject({ filename: "shot.png", contentType: "image/png" });
      expect((await rows()).map((r) => r.issue_id)).toEqual([null]);
      const claim = (ids: number[], uploaderId = grace, project = web, to = issueId) => claimAttachments(db, { project, issueId: to, uploaderId, ids, now: at(4) });
      expect(await claim([uploaded.attachment.id])).toEqual([{ id: uploaded.attachment.id, filename: "shot.png" }]);
      expect((await rows()).map((r) => [r.issue_id, r.comment_id])).toEqual([[issueId, null]]);
      expect(await activity()).toEqual([["attachment", null, "shot.png"]]);
      // Claimed once: a second text linking it (on another issue) does not take it.
      const other = await fileIssue(web, "Another");
      expect(await claim([uploaded.attachment.id], grace, web, other)).toEqual([]);
      expect((await rows()).map((r) => r.issue_id)).toEqual([issueId]);
    });

    it("claims only one's own uploads of this workspace: linking someone else's file takes nothing", async () => {
      const adas = await upload("adas.png", ada);
      const olgas = await upload("olgas.png", olga, globexId);
      if (!adas.ok || !olgas.ok) throw new Error("not uploaded");
      expect(await claimAttachments(db, { project: web, issueId, uploaderId: grace, ids: [adas.attachment.id, olgas.attachment.id], now: at(4) })).toEqual([]);
      expect(await claimAttachments(db, { project: web, issueId, uploaderId: olga, ids: [olgas.attachment.id], now: at(4) })).toEqual([]);
      expect((await rows()).map((r) => r.issue_id)).toEqual([null, null]);
      expect(await activity()).toEqual([]);
    });

    it("gives a comment's uploads to the comment, without an activity line", async () => {
      const uploaded = await upload("trace.txt", grace, web.workspace_id, Buffer.from("stack trace"));
      const added = await addComment(db, { project: web, issueId, authorId: grace, body: "see file", now: at(4) });
      if (!uploaded.ok || !added.ok) throw new Error("not written");
      await claimAttachments(db, { project: web, issueId, commentId: added.commentId, uploaderId: grace, ids: [uploaded.attachment.id], now: at(4) });
      expect((await rows()).map((r) => [r.issue_id, r.comment_id, r.content_type])).toEqual([[issueId, added.commentId, "text/plain; charset=utf-8"]]);
      expect(await activity()).toEqual([]);
    });

    it("counts unclaimed uploads against the workspace's total, and refuses one over a limit", async () => {
      const tight = { maxBytes: 100, workspaceMaxBytes: 150 };
      expect(await uploadUnclaimed(handle, { workspaceId: web.workspace_id, uploaderId: grace, file: sized(101), limits: tight, now: at(3) })).toMatchObject({ ok: false, status: 413 });
      expect(await uploadUnclaimed(handle, { workspaceId: web.workspace_id, uploaderId: grace, file: sized(100), limits: tight, now: at(3) })).toMatchObject({ ok: true });
      expect(await uploadUnclaimed(handle, { workspaceId: web.workspace_id, uploaderId: grace, file: sized(100), limits: tight, now: at(3) })).toMatchObject({ ok: false, status: 413 });
    });

    it("deletes uploads no form claimed within a day, and nothing else", async () => {
      const old = await upload("old.png");
      const recent = await uploadUnclaimed(handle, { workspaceId: web.workspace_id, uploaderId: grace, file: sized(3, "recent.bin"), limits, now: at(50) });
      await attach([sized(3, "kept.bin")]);
      if (!old.ok || !recent.ok) throw new Error("not uploaded");
      const dayAfter = (minute: number) => new Date(at(minute).getTime() + 24 * 60 * 60_000);
      expect(await deleteUnclaimedAttachments(db, dayAfter(3))).toBe(0);
      expect(await deleteUnclaimedAttachments(db, dayAfter(4))).toBe(1);
      expect((await rows()).map((r) => r.filename)).toEqual(["recent.bin", "kept.bin"]);
    });
  });

  describe("deleteAttachment", () => {
    async function attachedId(uploaderId = grace): Promise<number> {
      const attached = await attach([sized(5, "notes.txt")], { uploaderId });
      if (!attached.ok) throw new Error("not attached");
      return attached.attachments[0]!.id;
    }
    const remove = (attachmentId: number, actorId: number, canDeleteAny: boolean, to = issueId) =>
      deleteAttachment(db, { project: web, issueId: to, attachmentId, actorId, canDeleteAny, now: at(9) });

    it("lets the uploader delete their file: its row and bytes are gone, the activity says so", async () => {
      const id = await attachedId();
      expect(await remove(id, grace, false)).toEqual({ ok: true });
      expect(await rows()).toEqual([]);
      expect(await activity()).toEqual([
        ["attachment", null, "notes.txt"],
        ["attachment", "notes.txt", null],
      ]);
    });

    if (dialect === "sqlite") {
      it("leaves no trace of a deleted file's bytes in the database file", async () => {
        const marker = `MARKER-${"secret ".repeat(5000)}`;
        const attached = await attach([file(marker, "secret.txt")]);
        if (!attached.ok) throw new Error("not attached");
        // In the file itself (the write-ahead log holds it until its frames are written over).
        await sql`pragma wal_checkpoint(truncate)`.execute(db);
        expect(readFileSync(path.join(database.dataDir, sqliteFileName)).includes("MARKER-")).toBe(true);
        expect(await remove(attached.attachments[0]!.id, grace, false)).toEqual({ ok: true });
        await sql`pragma wal_checkpoint(truncate)`.execute(db);
        expect(readFileSync(path.join(database.dataDir, sqliteFileName)).includes("MARKER-")).toBe(false);
      });
    }

    it("lets an admin delete anyone's file, and refuses a member another's (403)", async () => {
      const id = await attachedId(ada);
      expect(await remove(id, grace, false)).toEqual({ ok: false, status: 403, message: "You don't have permission to do that." });
      expect(await rows()).toHaveLength(1);
      const graces = await attachedId(grace);
      expect(await remove(graces, ada, true)).toEqual({ ok: true });
      expect((await rows()).map((r) => r.id)).toEqual([id]);
    });

    it("does not find a file through another issue, or one already deleted", async () => {
      const id = await attachedId();
      const other = await fileIssue(web, "Another");
      expect(await remove(id, grace, true, other)).toMatchObject({ ok: false, status: 404 });
      expect(await remove(id, grace, false)).toEqual({ ok: true });
      expect(await remove(id, grace, false)).toMatchObject({ ok: false, status: 404 });
    });
  });

  describe("serving and showing", () => {
    it("serves a file to members of its workspace only, by the workspace's slug", async () => {
      const attached = await attach([file(pngBytes(2, 2), "a.png")]);
      if (!attached.ok) throw new Error("not attached");
      const id = attached.attachments[0]!.id;
      const served = await findServedAttachment(db, { workspaceSlug: acmeSlug, id, userId: ada });
      expect(served).toMatchObject({ id, filename: "a.png", content_type: "image/png" });
      expect(Buffer.compare(await storedBytes(db, id), pngBytes(2, 2))).toBe(0);
      expect(await findServedAttachment(db, { workspaceSlug: acmeSlug, id, userId: olga })).toBeUndefined();
      // Olga's own workspace's address does not reach Acme's file either.
      expect(await findServedAttachment(db, { workspaceSlug: "globex", id, userId: olga })).toBeUndefined();
      expect(await findServedAttachment(db, { workspaceSlug: acmeSlug, id: id + 1000, userId: ada })).toBeUndefined();
    });

    it("shows inline only the workspace's own images", async () => {
      const attached = await attach([file(pngBytes(8, 6), "a.png"), file("text", "b.txt")]);
      const theirs = await upload("theirs.png", olga, globexId);
      if (!attached.ok || !theirs.ok) throw new Error("not attached");
      const [png, txt] = [attached.attachments[0]!, attached.attachments[1]!];
      expect(await findInlineImages(db, web.workspace_id, [png.id, txt.id, theirs.attachment.id])).toEqual(new Map([[png.id, { width: 8, height: 6 }]]));
      expect(await findInlineImages(db, web.workspace_id, [])).toEqual(new Map());
    });

    it("goes with its workspace when the workspace is deleted", async () => {
      await attach([sized(5)]);
      await upload("loose.png");
      await deleteWorkspace(db, web.workspace_id);
      expect(await rows()).toEqual([]);
    });
  });
});
