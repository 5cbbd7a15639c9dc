/**
 * The webhooks' outbox on every database, with a stand-in sender and a clock: deliveries are
 * written with the change (and not with a rolled-back one), only to webhooks that are on and want
 * the type; an issue's later event waits while an earlier one is retried; the last retry fails the
 * delivery; a day of failures turns the webhook off and tells its creator in the inbox; old log
 * rows are pruned.
 */
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { addComment } from "~/comments/comments.server";
import { createIssue, updateIssue } from "~/issues/issues.server";
import { createLogger } from "~/logging/logger.server";
import { listInbox, unreadCount } from "~/notifications/notifications.server";
import { createWebhookDispatcher, deliveryRetentionMs, failingDisableMs, pruneWebhookDeliveries } from "~/webhooks/dispatcher.server";
import type { AttemptOutcome, sendWebhook } from "~/webhooks/send.server";
import { createWebhook, deleteWebhook, listWebhooks } from "~/webhooks/webhooks.server";
import { testDialects, type TestDatabase, waitForLockWaiters } from "../support/databases";
import { withMigratedDatabase } from "../support/migrated-database";
import { issueFields } from "../support/issues";
import { emptyWorkspaceTables, type SeededProject, seedTestWorkspace } from "../support/workspaces";

const silent = createLogger("silent");
const t0 = new Date(Date.UTC(2026, 10, 24, 9, 0));
const hour = 3_600_000;

describe.each(testDialects)("the webhook dispatcher on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let project: SeededProject;
  let users: { ada: number; grace: number };
  let workspaceId: number;
  let now: Date;
  let sent: { url: string; type: string; messageId: string; body: string }[];
  let answers: Partial<AttemptOutcome>[];

  const send: typeof sendWebhook = async (message) => {
    const body = JSON.parse(message.body) as { type: string };
    sent.push({ url: message.url, type: body.type, messageId: message.messageId, body: message.body });
    const answer = answers.shift() ?? {};
    return { ok: true, statusCode: 200, error: null, durationMs: 3, refused: false, ...answer };
  };
  const fail: Partial<AttemptOutcome> = { ok: false, statusCode: 500, error: "HTTP 500" };
  const dispatcher = (instance = "test") =>
    createWebhookDispatcher({ database: handle, logger: silent, instance, retryDelaysSeconds: [60, 600], allowPrivate: false, publicUrl: "https://cairn.example.test", send });
  /** Sends what is due at `now`, one delivery after another, until nothing more is claimed. */
  const drain = async () => {
    const lane = dispatcher();
    for (;;) {
      const claimed = await lane.claim({ now, leaseMs: 60_000, limit: 16 });
      if (!claimed.length) return;
      for (const delivery of claimed) await lane.run(delivery, () => now);
    }
  };

  withMigratedDatabase(dialect, (opened) => ({ database, handle, db } = opened));

  beforeEach(async () => {
    await db.deleteFrom("webhooks").execute();
    await emptyWorkspaceTables(db);
    const seeded = await seedTestWorkspace(db, { slug: "acme", at: t0, members: { ada: "owner", grace: "member" }, projects: { WEB: "Website" } });
    project = seeded.projects.WEB;
    users = seeded.users;
    workspaceId = seeded.id;
    now = t0;
    sent = [];
    answers = [];
  });

  const file = async (title: string) => {
    const filed = await createIssue(db, { project, reporterId: users.ada, fields: issueFields({ title }), now });
    if (!("number" in filed)) throw new Error("not filed");
    return (await db.selectFrom("issues").select("id").where("title", "=", title).executeTakeFirstOrThrow()).id;
  };
  const hook = async (url: string, events: ("issue.created" | "issue.updated" | "comment.created")[] = []) => {
    const made = await createWebhook(db, { workspaceId, userId: users.ada, url, events, now });
    if (!made.ok) throw new Error(made.message);
    return made.id;
  };

  /** A second workspace with a webhook and an issue filed, whose delivery is written after acme's. */
  const otherWorkspaceWithDelivery = async () => {
    const beta = await seedTestWorkspace(db, { slug: "beta", at: t0, members: { linus: "owner" }, projects: { BET: "Beta" } });
    const made = await createWebhook(db, { workspaceId: beta.id, userId: beta.users.linus, url: "https://b.example/hook", events: [], now });
    if (!made.ok) throw new Error(made.message);
    await createIssue(db, { project: beta.projects.BET, reporterId: beta.users.linus, fields: issueFields({ title: "Beta" }), now });
    return made.id;
  };
  const countByWebhook = (claimed: { webhook_id: number }[]) => {
    const counts: Record<number, number> = {};
    for (const { webhook_id } of claimed) counts[webhook_id] = (counts[webhook_id] ?? 0) + 1;
    return counts;
  };
  const lease = { leaseMs: 60_000, limit: 16 };

  it("has at most two deliveries of a webhook and four of a workspace in flight, over every instance", async () => {
    const [first, second, third] = [await hook("https://a.example/1"), await hook("https://a.example/2"), await hook("https://a.example/3")];
    for (const title of ["One", "Two", "Three"]) await file(title);
    const beta = await otherWorkspaceWithDelivery();
    const claimed = await dispatcher("one").claim({ now, ...lease });
    expect(countByWebhook(claimed)).toEqual({ [first]: 2, [second]: 1, [third]: 1, [beta]: 1 });
    // Another instance finds every webhook and workspace at its share.
    expect(await dispatcher("two").claim({ now, ...lease })).toEqual([]);
    // One delivered: its place goes to the next delivery of acme, within each webhook's two.
    await dispatcher("one").run(claimed[0]!, () => now);
    expect(countByWebhook(await dispatcher("two").claim({ now, ...lease }))).toEqual({ [second]: 1 });
  });

  it("claims for the least busy workspace first, even when another's deliveries are older", async () => {
    const acme = await hook("https://a.example/1");
    for (const title of ["One", "Two", "Three"]) await file(title);
    const beta = await otherWorkspaceWithDelivery();
    const one = dispatcher("one");
    const next = async () => countByWebhook(await one.claim({ now, leaseMs: 60_000, limit: 1 }));
    expect(await next()).toEqual({ [acme]: 1 });
    expect(await next()).toEqual({ [beta]: 1 });
    expect(await next()).toEqual({ [acme]: 1 });
    expect(await next()).toEqual({});
  });

  it("renews only the leases an instance holds; a lapsed one is claimed by another, and the first instance's outcome then changes nothing", async () => {
    await hook("https://a.example/hook");
    const issueId = await file("One");
    const [one, two] = [dispatcher("one"), dispatcher("two")];
    const later = (ms: number) => new Date(t0.getTime() + ms);
    const [delivery] = await one.claim({ now: t0, ...lease });
    await one.renew({ ids: [delivery!.id], now: later(50_000), leaseMs: 60_000 });
    await two.renew({ ids: [delivery!.id], now: later(100_000), leaseMs: 600_000 });
    expect(await two.claim({ now: later(109_999), ...lease })).toEqual([]);
    const [again] = await two.claim({ now: later(110_000), ...lease });
    expect(again).toMatchObject({ id: delivery!.id, attempts: 2 });
    // The first instance comes back and reports: its lease is gone, so nothing is recorded.
    await one.run(delivery!, () => later(110_001));
    expect(await db.selectFrom("webhook_deliveries").select(["status", "locked_by"]).where("issue_id", "=", issueId).execute()).toEqual([{ status: "pending", locked_by: "two" }]);
    expect(await db.selectFrom("webhook_attempts").select("id").execute()).toEqual([]);
  });

  it.runIf(dialect === "postgres")("deletes a webhook while one of its deliveries is being settled, without a deadlock", async () => {
    const webhookId = await hook("https://a.example/hook");
    await file("One");
    const delivery = await db.selectFrom("webhook_deliveries").select("id").executeTakeFirstOrThrow();
    const settler = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await settler.connect();
    try {
      // What settling an attempt does: the delivery's row first, then its webhook's.
      await settler.query("begin");
      await settler.query("update webhook_deliveries set locked_until = null where id = $1", [delivery.id]);
      const deleting = deleteWebhook(db, { workspaceId, webhookId }).catch((error: unknown) => String(error));
      await waitForLockWaiters(settler, 1);
      await settler.query("update webhooks set last_success_at = $1 where id = $2", [t0.toISOString(), webhookId]);
      await settler.query("commit");
      expect(await deleting).toBe(true);
    } finally {
      await settler.end();
    }
    expect(await db.selectFrom("webhooks").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("webhook_deliveries").select("id").execute()).toEqual([]);
  });

  it("writes deliveries with the change, to the webhooks that are on and want its type", async () => {
    await hook("https://a.example/all");
    await hook("https://b.example/comments", ["comment.created"]);
    const off = await hook("https://c.example/off");
    await db.updateTable("webhooks").set({ enabled: 0 }).where("id", "=", off).execute();
    const issueId = await file("First");
    await addComment(db, { project, issueId, authorId: users.grace, body: "Hello", now });
    const rows = await db.selectFrom("webhook_deliveries").innerJoin("webhooks", "webhooks.id", "webhook_deliveries.webhook_id").select(["webhooks.url", "type"]).orderBy("webhook_deliveries.id").execute();
    expect(rows.map((row) => `${row.url} ${row.type}`)).toEqual(["https://a.example/all issue.created", "https://a.example/all comment.created", "https://b.example/comments comment.created"]);

  });

  it("sends an issue's events in order: a later one waits while an earlier one is retried; other issues go on; the last retry fails it", async () => {
    await hook("https://a.example/hook");
    const first = await file("First");
    await updateIssue(db, { project, issueId: first, actorId: users.ada, version: 1, changes: { status: "todo" }, now });
    const second = await file("Second");
    answers.push(fail);
    await drain();
    // The first issue's created failed; its update waits; the second issue went.
    expect(sent.map((s) => s.type)).toEqual(["issue.created", "issue.created"]);
    expect(JSON.parse(sent[1]!.body).data.issue.title).toBe("Second");
    expect(JSON.parse(sent[1]!.body).data.issue.url).toBe("https://cairn.example.test/w/acme/p/WEB/issues/2");

    now = new Date(t0.getTime() + 59_000);
    await drain();
    expect(sent).toHaveLength(2);
    now = new Date(t0.getTime() + 60_000);
    answers.push(fail);
    await drain();
    expect(sent).toHaveLength(3);
    expect(sent[2]!.messageId).toBe(sent[0]!.messageId);
    now = new Date(t0.getTime() + 60_000 + 600_000);
    answers.push(fail);
    await drain();
    // Third attempt, the last: failed; the update, waiting behind it, goes.
    expect(sent.map((s) => s.type)).toEqual(["issue.created", "issue.created", "issue.created", "issue.created", "issue.updated"]);
    const deliveries = await db.selectFrom("webhook_deliveries").select(["issue_id", "type", "status", "attempts"]).orderBy("id").execute();
    expect(deliveries).toEqual([
      { issue_id: first, type: "issue.created", status: "failed", attempts: 3 },
      { issue_id: first, type: "issue.updated", status: "delivered", attempts: 1 },
      { issue_id: second, type: "issue.created", status: "delivered", attempts: 1 },
    ]);
    const [listed] = await listWebhooks(db, workspaceId);
    expect(listed!.deliveries.find((d) => d.status === "failed")!.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[3, 500], [2, 500], [1, 500]]);
  });

  it("turns off a webhook that fails for a day and tells its creator in the inbox; a success in between starts the day again", async () => {
    const id = await hook("https://a.example/down");
    const issueId = await file("One");
    answers.push(fail);
    await drain();
    const failingSince = (await db.selectFrom("webhooks").select("failing_since").where("id", "=", id).executeTakeFirstOrThrow()).failing_since;
    expect(new Date(failingSince!).getTime()).toBe(t0.getTime());

    // A success 20 hours in: the failures are forgotten.
    now = new Date(t0.getTime() + 20 * hour);
    await addComment(db, { project, issueId, authorId: users.grace, body: "Ping", now });
    await drain();
    expect((await db.selectFrom("webhooks").select("failing_since").where("id", "=", id).executeTakeFirstOrThrow()).failing_since).toBeNull();

    // Failing from hour 21 on, every attempt, until a day has passed since then.
    const failFor = async (at: number) => {
      now = new Date(t0.getTime() + at);
      await addComment(db, { project, issueId, authorId: users.grace, body: `at ${at}`, now });
      for (let i = 0; i < 3; i++) answers.push(fail);
      await drain();
      now = new Date(now.getTime() + 60_000);
      await drain();
      now = new Date(now.getTime() + 600_000);
      await drain();
    };
    await failFor(21 * hour);
    await failFor(21 * hour + failingDisableMs - 2 * hour);
    expect((await db.selectFrom("webhooks").select("enabled").where("id", "=", id).executeTakeFirstOrThrow()).enabled).toBe(1);
    await failFor(21 * hour + failingDisableMs);
    expect(await db.selectFrom("webhooks").select(["enabled", "disabled_reason"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({ enabled: 0, disabled_reason: "failing" });

    // Ada (who made it) is told; Grace (who commented) is not. Ada's other row is Grace's comments on her issue.
    const inbox = await listInbox(db, { userId: users.ada, workspaceId, page: 1 });
    expect(inbox.rows.filter((row) => row.webhook)).toMatchObject([{ reason: "webhook_disabled", read: false, webhook: { url: "https://a.example/down" } }]);
    expect(await unreadCount(db, users.ada, workspaceId)).toBe(2);
    expect((await listInbox(db, { userId: users.grace, workspaceId, page: 1 })).rows.filter((row) => row.webhook)).toEqual([]);

    // Off: nothing more is written or sent to it.
    const before = sent.length;
    await addComment(db, { project, issueId, authorId: users.grace, body: "While off", now });
    now = new Date(now.getTime() + hour);
    await drain();
    expect(sent).toHaveLength(before);
  });

  it("refuses a private address for good at the first attempt, and prunes finished deliveries after 30 days", async () => {
    await hook("https://a.example/hook");
    answers.push({ ok: false, statusCode: null, error: "Refused: a.example resolves to 10.0.0.1, a private address", refused: true });
    await file("One");
    await drain();
    expect(await db.selectFrom("webhook_deliveries").select(["status", "attempts"]).execute()).toEqual([{ status: "failed", attempts: 1 }]);
    await file("Two");
    await drain();
    expect(await pruneWebhookDeliveries(db, new Date(t0.getTime() + deliveryRetentionMs - 1000))).toBe(0);
    expect(await pruneWebhookDeliveries(db, new Date(t0.getTime() + deliveryRetentionMs + 1000))).toBe(2);
    expect(await db.selectFrom("webhook_attempts").select("id").execute()).toEqual([]);
  });
});
