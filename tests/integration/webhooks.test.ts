/**
 * Webhooks (issue 15) on every database, over HTTP against production servers: a receiver started
 * here checks every signature with an independent implementation (the `standardwebhooks` package),
 * fails the first attempt and sees the retry (same webhook-id), sees an issue's events in order and
 * nothing it did not subscribe to, gets a redelivery with the same webhook-id, still gets what the
 * outbox took after a kill -9; a server without WEBHOOK_ALLOW_PRIVATE refuses to call 127.0.0.1.
 * Roles, cross-workspace ids and odd input on /w/:workspace/settings/webhooks.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";
import { type Received, type Receiver, startReceiver } from "../support/webhook-receivers";
import { addMember } from "../support/workspaces";

const publicUrl = "https://cairn.example.test";
const password = "correct horse battery";
let addresses = 0;
const fromNewAddress = () => ({ "x-forwarded-for": `198.51.100.${++addresses}` });
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A form post with repeated fields (`events`), as a browser sends a group of checkboxes. */
async function postPairs(client: BrowserlessClient, path: string, pairs: [string, string][]) {
  return fetch(new URL(path, client.baseUrl), {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams(pairs),
    headers: { cookie: client.cookieHeader(), origin: client.baseUrl },
  });
}

describe.each(testDialects)("webhooks over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  let receiver: Receiver;
  let secret: string;
  let webhookId: number;
  const people = {} as Record<"olivia" | "grace" | "linus" | "margaret" | "stranger", { client: BrowserlessClient; id: number }>;
  const env = (allowPrivate = true) => ({
    ...database.env,
    TRUST_PROXY: "loopback",
    PUBLIC_URL: publicUrl,
    WEBHOOK_RETRY_DELAYS: "1,1,1",
    ...(allowPrivate ? { WEBHOOK_ALLOW_PRIVATE: "true" } : {}),
  });
  const settings = "/w/rockets/settings/webhooks";
  const issuePath = (number: number) => `/w/rockets/p/WEB/issues/${number}`;
  const verify = (delivery: Received) =>
    new Webhook(secret).verify(delivery.body, {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    }) as { type: string; timestamp: string; data: Record<string, any> };
  const reconnect = () => {
    for (const person of Object.values(people)) Object.assign(person, { client: person.client.at(server.url) });
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    receiver = await startReceiver();
    server = await startServer(env());
    handle = database.open();
    const names = { olivia: "Olivia Owner", grace: "Grace Hopper", linus: "Linus Torvalds", margaret: "Margaret Hamilton", stranger: "Sam Stranger" };
    for (const [handleName, name] of Object.entries(names) as [keyof typeof names, string][]) {
      const client = new BrowserlessClient(server.url);
      expect((await client.post("/signup", { name, email: `${handleName}@example.com`, password }, fromNewAddress())).status).toBe(302);
      const { id } = await handle.db.selectFrom("users").select("id").where("email", "=", `${handleName}@example.com`).executeTakeFirstOrThrow();
      people[handleName] = { client, id };
    }
    expect((await people.olivia.client.post("/w/new", { name: "Rocket Garden", slug: "rockets" })).status).toBe(302);
    const { id: workspaceId } = await handle.db.selectFrom("workspaces").select("id").where("slug", "=", "rockets").executeTakeFirstOrThrow();
    const at = new Date();
    await addMember(handle.db, { workspaceId, userId: people.grace.id, role: "admin", at });
    await addMember(handle.db, { workspaceId, userId: people.linus.id, role: "member", at });
    await addMember(handle.db, { workspaceId, userId: people.margaret.id, role: "viewer", at });
    expect((await people.olivia.client.post("/w/rockets/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
    expect((await people.stranger.client.post("/w/new", { name: "Elsewhere", slug: "elsewhere" })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await handle?.db.destroy();
    await database?.drop();
  });

  it("shows the secret once, signs every delivery, retries a failure with the same webhook-id, keeps an issue's order, and sends only the chosen events", { timeout: 60_000 }, async () => {
    const { grace, olivia } = people;
    expect(await text(await grace.client.get(settings))).toContain("No webhooks yet.");
    const events = ["issue.created", "issue.updated", "comment.created", "comment.updated"];
    const created = await postPairs(grace.client, settings, [["intent", "create"], ["url", receiver.url], ...events.map((event): [string, string] => ["events", event])]);
    expect(created.status).toBe(200);
    const page = await text(created);
    secret = /value="(whsec_[A-Za-z0-9+/=]+)"/.exec(page)?.[1] ?? "";
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(page).toContain("it is not shown again");
    const listed = await text(await grace.client.get(settings));
    expect(listed).toContain(receiver.url);
    expect(listed).not.toContain(secret);
    webhookId = (await handle.db.selectFrom("webhooks").select("id").executeTakeFirstOrThrow()).id;

    // The first attempt fails (500): it is tried again a second later, with the same webhook-id.
    receiver.answers.push(500);
    expect((await olivia.client.post("/w/rockets/p/WEB/issues/new", { title: "Launch checklist", description: "Fuel, then go.", assigneeId: String(grace.id) })).status).toBe(302);
    expect((await olivia.client.post(issuePath(1), { intent: "status", status: "in_progress", version: "1" })).status).toBe(302);
    expect((await olivia.client.post(issuePath(1), { intent: "comment", body: "Fuel loaded." })).status).toBe(302);
    const { id: commentId } = await handle.db.selectFrom("comments").select("id").executeTakeFirstOrThrow();
    expect((await olivia.client.post(issuePath(1), { intent: "edit-comment", commentId: String(commentId), body: "Fuel loaded twice." })).status).toBe(302);
    expect((await olivia.client.post(issuePath(1), { intent: "delete-comment", commentId: String(commentId) })).status).toBe(302);

    const deliveries = await receiver.waitFor(5);
    await pause(1500);
    expect(receiver.received).toHaveLength(5);
    const messages = deliveries.map(verify);
    expect(messages.map((message) => message.type)).toEqual(["issue.created", "issue.created", "issue.updated", "comment.created", "comment.updated"]);
    expect(deliveries.map((delivery) => delivery.answered)).toEqual([500, 200, 200, 200, 200]);
    expect(deliveries[0]!.headers["webhook-id"]).toBe(deliveries[1]!.headers["webhook-id"]);
    expect(new Set(deliveries.slice(1).map((delivery) => delivery.headers["webhook-id"])).size).toBe(4);
    for (const delivery of deliveries) {
      expect(delivery.headers["content-type"]).toBe("application/json");
      expect(delivery.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(delivery.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    }
    // A wrong secret does not verify: the check is real.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(deliveries[1]!.body, deliveries[1]!.headers as Record<string, string>)).toThrow();

    const [, filed, updated, commented, edited] = messages;
    expect(filed!.data).toEqual({
      issue: {
        id: expect.any(Number),
        key: "WEB-1",
        number: 1,
        title: "Launch checklist",
        description: "Fuel, then go.",
        status: "backlog",
        priority: "none",
        assignee: { id: grace.id, name: "Grace Hopper", handle: "grace" },
        labels: [],
        dueDate: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.any(String),
        closedAt: null,
        version: 1,
        url: `${publicUrl}${issuePath(1)}`,
      },
      actor: { id: olivia.id, name: "Olivia Owner", handle: "olivia" },
    });
    expect(filed!.timestamp).toMatch(/Z$/);
    expect(updated!.data.changes).toEqual({ status: { from: "backlog", to: "in_progress" } });
    expect(updated!.data.issue).toMatchObject({ status: "in_progress", version: 2 });
    expect(commented!.data.comment).toMatchObject({ id: commentId, body: "Fuel loaded.", author: { id: olivia.id, name: "Olivia Owner", handle: "olivia" }, edited: false });
    expect(edited!.data.comment).toMatchObject({ id: commentId, body: "Fuel loaded twice.", edited: true });

    // The log: the failed attempt and its retry, each with its status and duration.
    const log = await text(await grace.client.get(settings));
    expect(log).toContain("HTTP 500");
    expect(log).toContain("attempt 2");
    const attempts = await handle.db.selectFrom("webhook_attempts").selectAll().orderBy("id").execute();
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([[1, 500], [2, 200], [1, 200], [1, 200], [1, 200]]);
    expect(attempts.every((attempt) => attempt.duration_ms >= 0)).toBe(true);
  });

  it("redelivers with the same webhook-id, and turns a webhook off and on", { timeout: 30_000 }, async () => {
    const { grace, olivia } = people;
    const first = await handle.db.selectFrom("webhook_deliveries").select(["id", "message_id"]).orderBy("id").executeTakeFirstOrThrow();
    const before = receiver.received.length;
    const redelivered = await grace.client.post(settings, { intent: "redeliver", deliveryId: String(first.id) });
    expect(redelivered.status).toBe(302);
    expect(redelivered.headers.get("location")).toBe(settings);
    const [again] = (await receiver.waitFor(before + 1)).slice(before);
    expect(again!.headers["webhook-id"]).toBe(first.message_id);
    expect(verify(again!).type).toBe("issue.created");

    expect((await grace.client.post(settings, { intent: "disable", webhookId: String(webhookId) })).status).toBe(302);
    expect(await text(await grace.client.get(settings))).toContain("Turn on");
    expect((await olivia.client.post(issuePath(1), { intent: "comment", body: "While it is off." })).status).toBe(302);
    await pause(1500);
    expect(receiver.received).toHaveLength(before + 1);
    expect((await grace.client.post(settings, { intent: "enable", webhookId: String(webhookId) })).status).toBe(302);
    expect((await olivia.client.post(issuePath(1), { intent: "comment", body: "On again." })).status).toBe(302);
    const [on] = (await receiver.waitFor(before + 2)).slice(before + 1);
    expect(verify(on!).data.comment.body).toBe("On again.");
  });

  it("lets admins and owners in, refuses members and viewers (403) and strangers (404), and finds no other workspace's webhook or delivery", async () => {
    const { grace, olivia, linus, margaret, stranger } = people;
    expect((await olivia.client.get(settings)).status).toBe(200);
    expect((await grace.client.get(settings)).status).toBe(200);
    for (const who of [linus, margaret]) {
      expect((await who.client.get(settings)).status).toBe(403);
      expect((await who.client.post(settings, { intent: "disable", webhookId: String(webhookId) })).status).toBe(403);
      expect((await postPairs(who.client, settings, [["intent", "create"], ["url", "https://example.com/x"]])).status).toBe(403);
    }
    expect((await stranger.client.get(settings)).status).toBe(404);
    expect((await stranger.client.post(settings, { intent: "delete", webhookId: String(webhookId) })).status).toBe(404);
    expect((await new BrowserlessClient(server.url).get(settings)).status).toBe(302);
    expect(await text(await linus.client.get("/w/rockets/settings"))).not.toContain("Webhooks");
    expect(await text(await grace.client.get("/w/rockets/settings"))).toContain("Webhooks");

    // The stranger's own workspace and webhook: from rockets, its ids are not found.
    const made = await postPairs(stranger.client, "/w/elsewhere/settings/webhooks", [["intent", "create"], ["url", "https://example.com/elsewhere"]]);
    expect(made.status).toBe(200);
    const theirs = await handle.db.selectFrom("webhooks").select("id").where("url", "=", "https://example.com/elsewhere").executeTakeFirstOrThrow();
    for (const intent of ["enable", "disable", "delete"]) {
      expect((await olivia.client.post(settings, { intent, webhookId: String(theirs.id) })).status).toBe(404);
    }
    const ours = await handle.db.selectFrom("webhook_deliveries").select("id").orderBy("id").executeTakeFirstOrThrow();
    expect((await stranger.client.post("/w/elsewhere/settings/webhooks", { intent: "redeliver", deliveryId: String(ours.id) })).status).toBe(404);
    expect((await olivia.client.post(settings, { intent: "redeliver", deliveryId: "2147483647" })).status).toBe(404);
    expect(await handle.db.selectFrom("webhooks").select("id").where("id", "=", theirs.id).executeTakeFirst()).toBeDefined();
  });

  it("refuses odd input with 400 and a message at the field, never a 5xx", async () => {
    const { grace } = people;
    const odd: [string, string][][] = [
      [["intent", "create"], ["url", ""]],
      [["intent", "create"], ["url", "not a url"]],
      [["intent", "create"], ["url", "javascript:alert(1)"]],
      [["intent", "create"], ["url", "ftp://example.com/x"]],
      [["intent", "create"], ["url", "https://user:secret@example.com/x"]],
      [["intent", "create"], ["url", `https://example.com/${"a".repeat(2100)}`]],
      [["intent", "create"], ["url", "https://example.com/\u0000x"]],
      [["intent", "create"], ["url", "https://example.com/x"], ["events", "issue.deleted"]],
      [["intent", "create"], ["url", "https://example.com/x"], ["events", "x".repeat(100_000)]],
      [["intent", "create"], ["url", "https://example.com/x"], ...Array.from({ length: 50 }, (): [string, string] => ["events", "issue.created"])],
      [["intent", "create"]],
      [["intent", "enable"], ["webhookId", "abc"]],
      [["intent", "disable"], ["webhookId", "99999999999999999999"]],
      [["intent", "delete"], ["webhookId", "-1"]],
      [["intent", "redeliver"], ["deliveryId", ""]],
      [["intent", "explode"]],
      [],
    ];
    for (const pairs of odd) {
      const response = await postPairs(grace.client, settings, pairs);
      expect(response.status, JSON.stringify(pairs).slice(0, 200)).toBe(400);
    }
    const page = await text(await postPairs(grace.client, settings, [["intent", "create"], ["url", "javascript:alert(1)"]]));
    expect(page).toContain("Enter an http:// or https:// URL");
    expect(page).toContain('aria-invalid="true"');
    expect(await text(await postPairs(grace.client, settings, [["intent", "create"], ["url", "https://u:p@example.com/"]]))).toContain("Take the user name and password out of the URL");
    expect(await text(await postPairs(grace.client, settings, [["intent", "create"], ["url", "https://example.com/x"], ["events", "issue.deleted"]]))).toContain("Choose from the events listed");
    expect(await handle.db.selectFrom("webhooks").select("url").where("url", "like", "%example.com/x%").execute()).toEqual([]);
  });

  it("still delivers what the outbox took when the server is killed (-9) between the change and the delivery", { timeout: 90_000 }, async () => {
    const before = receiver.received.length;
    receiver.answers.push(503);
    expect((await people.olivia.client.post(issuePath(1), { intent: "comment", body: "Killed in between." })).status).toBe(302);
    const deadline = Date.now() + 15_000;
    while (!(await handle.db.selectFrom("webhook_attempts").select("id").where("status_code", "=", 503).execute()).length) {
      if (Date.now() > deadline) throw new Error("the first attempt never failed");
      await pause(20);
    }
    server.process.kill("SIGKILL");
    await server.exited;
    server = await startServer(env());
    reconnect();
    const arrived = (await receiver.waitFor(before + 2, 75_000)).slice(before);
    expect(arrived.map((delivery) => delivery.answered)).toEqual([503, 200]);
    expect(arrived[0]!.headers["webhook-id"]).toBe(arrived[1]!.headers["webhook-id"]);
    expect(verify(arrived[1]!).data.comment.body).toBe("Killed in between.");
  });

  it("refuses to deliver to 127.0.0.1 without WEBHOOK_ALLOW_PRIVATE, and records the refusal", { timeout: 60_000 }, async () => {
    await server.stop();
    server = await startServer(env(false));
    reconnect();
    const before = receiver.received.length;
    expect((await people.olivia.client.post(issuePath(1), { intent: "comment", body: "To a private address." })).status).toBe(302);
    const deadline = Date.now() + 15_000;
    let refusal;
    while (!(refusal = await handle.db.selectFrom("webhook_attempts").select(["error", "status_code"]).where("error", "like", "Refused%").executeTakeFirst())) {
      if (Date.now() > deadline) {
        const state = { deliveries: await handle.db.selectFrom("webhook_deliveries").selectAll().execute(), attempts: await handle.db.selectFrom("webhook_attempts").selectAll().execute(), logs: server.logs.slice(-5) };
        throw new Error(`no refusal was recorded: ${JSON.stringify(state)}`);
      }
      await pause(50);
    }
    expect(refusal.status_code).toBeNull();
    expect(refusal.error).toContain("127.0.0.1");
    expect(refusal.error).toContain("loopback");
    const delivery = await handle.db.selectFrom("webhook_deliveries").select(["status", "attempts"]).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: "failed", attempts: 1 });
    await pause(1500);
    expect(receiver.received).toHaveLength(before);
    expect(await text(await people.grace.client.get(settings))).toContain("Refused: 127.0.0.1");
  });

  it("turns off a webhook that has failed for a day and tells its creator in the inbox, which leads to the webhooks page", { timeout: 60_000 }, async () => {
    const down = "http://127.0.0.1:1/down";
    expect((await postPairs(people.grace.client, settings, [["intent", "create"], ["url", down], ["events", "comment.created"]])).status).toBe(200);
    // It has failed since yesterday (what the dispatcher records at a first failure); the next failure turns it off.
    const yesterday = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    await handle.db.updateTable("webhooks").set({ failing_since: yesterday }).where("url", "=", down).execute();
    expect((await people.olivia.client.post(issuePath(1), { intent: "comment", body: "Anyone there?" })).status).toBe(302);
    const deadline = Date.now() + 20_000;
    while ((await handle.db.selectFrom("webhooks").select("enabled").where("url", "=", down).executeTakeFirstOrThrow()).enabled === 1) {
      if (Date.now() > deadline) throw new Error("the webhook was never turned off");
      await pause(50);
    }

    const inbox = await text(await people.grace.client.get("/w/rockets/inbox"));
    expect(inbox).toContain(`Webhook turned off: ${down}`);
    expect(inbox).toContain('href="/w/rockets/settings/webhooks"');
    // Only its creator is told.
    expect(await text(await people.olivia.client.get("/w/rockets/inbox"))).not.toContain("Webhook turned off");
    const { id: noticeId } = await handle.db.selectFrom("notifications").select("id").where("reason", "=", "webhook_disabled").executeTakeFirstOrThrow();
    expect((await people.grace.client.post("/w/rockets/inbox", { intent: "read", notificationId: String(noticeId) })).status).toBe(302);
    expect(await text(await people.grace.client.get("/w/rockets/inbox"))).toContain("Mark webhook notice as unread");
    expect(await text(await people.grace.client.get(settings))).toContain("Off: turned off by Cairn after a day of failed deliveries");
  });
});
