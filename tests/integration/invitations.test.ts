import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashToken, newToken } from "~/auth/tokens.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import type { Role } from "~/db/schema";
import { migrateToLatest } from "~/db/migrate.server";
import {
  acceptInvitation,
  createInvitation,
  findInvitation,
  invitationLifetimeMs,
  listPendingInvitations,
  revokeInvitation,
  type InvitationResult,
} from "~/workspaces/invitations.server";
import { maxMembersPerWorkspace, memberCount, onlyOwnersMessage } from "~/workspaces/members.server";
import { createWorkspace, findWorkspaceAccess } from "~/workspaces/workspaces.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";
import { insertUser } from "../support/users";
import { addMember } from "../support/workspaces";

const start = new Date("2025-03-01T12:00:00.000Z");
const second = 1000;
const hour = 60 * 60 * second;
const at = (ms: number) => new Date(start.getTime() + ms);

function tokenOf(result: InvitationResult): string {
  if (!result.ok) throw new Error(`expected an invitation, got: ${result.message}`);
  return result.token;
}

describe.each(testDialects)("invitations on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let workspaceId: number;
  let owner: number;
  let admin: number;
  let bob: { id: number; email: string };
  let eve: { id: number; email: string };

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    owner = await insertUser(db, { name: "Olivia Owner", at: start });
    admin = await insertUser(db, { name: "Adam Admin", at: start });
    bob = { id: await insertUser(db, { name: "Bob", at: start }), email: "bob@example.com" };
    eve = { id: await insertUser(db, { name: "Eve", at: start }), email: "eve@example.com" };
    await createWorkspace(db, { name: "Acme", slug: "acme", ownerId: owner, now: start });
    workspaceId = (await findWorkspaceAccess(db, "acme", owner))!.id;
    await addMember(db, { workspaceId, userId: admin, role: "admin", at: start });
  });

  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  const invite = (email: string, role: Role, options: { by?: "owner" | "admin"; now?: Date } = {}) =>
    createInvitation(db, {
      workspaceId,
      email,
      role,
      invitedBy: options.by === "admin" ? admin : owner,
      actorRole: options.by ?? "owner",
      now: options.now ?? start,
    });
  const roleOf = async (userId: number) =>
    (
      await db
        .selectFrom("memberships")
        .select("role")
        .where("workspace_id", "=", workspaceId)
        .where("user_id", "=", userId)
        .executeTakeFirst()
    )?.role;
  const noLongerValid = { ok: false, message: "This invitation is no longer valid. Ask for a new one." };

  it("creates, lists and revokes an invitation", async () => {
    const token = tokenOf(await invite("bob@example.com", "member"));
    const stored = await db.selectFrom("invitations").selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      workspace_id: workspaceId,
      email: "bob@example.com",
      role: "member",
      invited_by: owner,
      expires_at: at(invitationLifetimeMs).toISOString(),
      accepted_at: null,
      revoked_at: null,
      created_at: start.toISOString(),
    });
    // Only the hash of the link's token is kept.
    expect(stored.token_hash).toBe(hashToken(token));
    expect(stored.token_hash).not.toBe(token);

    const pending = await listPendingInvitations(db, workspaceId, at(hour));
    expect(pending).toEqual([
      {
        id: stored.id,
        email: "bob@example.com",
        role: "member",
        expires_at: at(invitationLifetimeMs).toISOString(),
        created_at: start.toISOString(),
      },
    ]);

    // Another workspace cannot revoke it.
    expect(await revokeInvitation(db, workspaceId + 1000, stored.id, at(hour))).toBe(false);
    expect(await revokeInvitation(db, workspaceId, stored.id, at(hour))).toBe(true);
    expect(await listPendingInvitations(db, workspaceId, at(hour))).toEqual([]);
    expect((await findInvitation(db, token, at(hour)))!.status).toBe("revoked");
    // Revoking twice does nothing the second time.
    expect(await revokeInvitation(db, workspaceId, stored.id, at(2 * hour))).toBe(false);
    expect((await db.selectFrom("invitations").select("revoked_at").executeTakeFirstOrThrow()).revoked_at).toBe(
      at(hour).toISOString(),
    );
  });

  it("lists pending invitations newest first, without expired, accepted or revoked ones", async () => {
    await invite("old@example.com", "viewer", { now: at(-8 * 24 * hour) }); // expired by now
    const accepted = tokenOf(await invite("bob@example.com", "member", { now: at(-3 * hour) }));
    await acceptInvitation(db, { token: accepted, user: bob, now: at(-2 * hour) });
    await invite("first@example.com", "member", { now: at(-2 * hour) });
    await invite("second@example.com", "admin", { now: at(-hour) });
    const revoked = await invite("gone@example.com", "member", { now: at(-hour) });
    const gone = (await findInvitation(db, tokenOf(revoked), start))!;
    await revokeInvitation(db, workspaceId, gone.id, start);

    expect((await listPendingInvitations(db, workspaceId, start)).map((i) => [i.email, i.role])).toEqual([
      ["second@example.com", "admin"],
      ["first@example.com", "member"],
    ]);
  });

  it("lets an admin invite members, viewers and admins, but not owners", async () => {
    expect(await invite("bob@example.com", "owner", { by: "admin" })).toEqual({
      ok: false,
      field: "role",
      status: 403,
      message: onlyOwnersMessage,
    });
    expect(await listPendingInvitations(db, workspaceId, start)).toEqual([]);
    for (const role of ["admin", "member", "viewer"] as const) {
      expect((await invite(`${role}@example.com`, role, { by: "admin" })).ok).toBe(true);
    }
    // An owner may invite an owner.
    expect((await invite("bob@example.com", "owner")).ok).toBe(true);
    expect(await listPendingInvitations(db, workspaceId, start)).toHaveLength(4);
  });

  it("refuses to invite someone who is already a member", async () => {
    expect(await invite("adam@example.com", "viewer")).toEqual({
      ok: false,
      field: "email",
      status: 400,
      message: expect.any(String),
    });
    expect(await invite("olivia@example.com", "member", { by: "admin" })).toMatchObject({ ok: false, field: "email" });
    expect(await listPendingInvitations(db, workspaceId, start)).toEqual([]);
  });

  it("re-inviting the same email revokes the older pending invitation", async () => {
    const first = tokenOf(await invite("bob@example.com", "viewer"));
    const second = tokenOf(await invite("bob@example.com", "admin", { now: at(hour) }));

    expect((await findInvitation(db, first, at(2 * hour)))!.status).toBe("revoked");
    expect((await findInvitation(db, second, at(2 * hour)))!.status).toBe("pending");
    expect(await listPendingInvitations(db, workspaceId, at(2 * hour))).toEqual([
      expect.objectContaining({ email: "bob@example.com", role: "admin" }),
    ]);
    expect(await acceptInvitation(db, { token: first, user: bob, now: at(2 * hour) })).toEqual(noLongerValid);
    expect(await acceptInvitation(db, { token: second, user: bob, now: at(2 * hour) })).toEqual({
      ok: true,
      slug: "acme",
    });
    expect(await roleOf(bob.id)).toBe("admin");
  });

  it("accepting with the matching email adds the membership with the invited role", async () => {
    const token = tokenOf(await invite("bob@example.com", "viewer"));
    expect(await acceptInvitation(db, { token, user: bob, now: at(hour) })).toEqual({ ok: true, slug: "acme" });

    expect(await roleOf(bob.id)).toBe("viewer");
    expect(await findWorkspaceAccess(db, "acme", bob.id)).toMatchObject({ role: "viewer" });
    expect(
      (await db.selectFrom("users").select("last_workspace_id").where("id", "=", bob.id).executeTakeFirstOrThrow())
        .last_workspace_id,
    ).toBe(workspaceId);
    const invitation = await findInvitation(db, token, at(2 * hour));
    expect(invitation!.status).toBe("accepted");
    expect((await db.selectFrom("invitations").select("accepted_at").executeTakeFirstOrThrow()).accepted_at).toBe(
      at(hour).toISOString(),
    );
    expect(await listPendingInvitations(db, workspaceId, at(2 * hour))).toEqual([]);
  });

  it("refuses someone whose email does not match, and leaves the invitation pending", async () => {
    const token = tokenOf(await invite("bob@example.com", "admin"));
    const result = await acceptInvitation(db, { token, user: eve, now: at(hour) });
    // Not naming whom it is for: Eve only holds the link.
    expect(result).toEqual({ ok: false, message: "This invitation is for another email address. Sign in with the one it was sent to." });
    expect(await roleOf(eve.id)).toBeUndefined();
    expect((await findInvitation(db, token, at(hour)))!.status).toBe("pending");
    // The right person still can.
    expect(await acceptInvitation(db, { token, user: bob, now: at(hour) })).toMatchObject({ ok: true });
  });

  it("cannot accept an invitation twice", async () => {
    const token = tokenOf(await invite("bob@example.com", "member"));
    await acceptInvitation(db, { token, user: bob, now: at(hour) });
    // Demoted meanwhile: accepting the old link again must not restore anything.
    await db.updateTable("memberships").set({ role: "viewer" }).where("user_id", "=", bob.id).execute();
    expect(await acceptInvitation(db, { token, user: bob, now: at(2 * hour) })).toEqual(noLongerValid);
    expect(await roleOf(bob.id)).toBe("viewer");
  });

  it("cannot accept a revoked invitation", async () => {
    const token = tokenOf(await invite("bob@example.com", "member"));
    const { id } = (await findInvitation(db, token, start))!;
    await revokeInvitation(db, workspaceId, id, at(hour));
    expect(await acceptInvitation(db, { token, user: bob, now: at(2 * hour) })).toEqual(noLongerValid);
    expect(await roleOf(bob.id)).toBeUndefined();
  });

  it("cannot accept an expired invitation", async () => {
    const token = tokenOf(await invite("bob@example.com", "member"));
    const expired = at(invitationLifetimeMs + second);
    expect(await acceptInvitation(db, { token, user: bob, now: expired })).toEqual(noLongerValid);
    expect(await roleOf(bob.id)).toBeUndefined();
    // Still pending one second before the end of its 7 days.
    expect(await acceptInvitation(db, { token, user: bob, now: at(invitationLifetimeMs - second) })).toMatchObject({
      ok: true,
    });
  });

  it("cannot accept an unknown token", async () => {
    expect(await acceptInvitation(db, { token: newToken(), user: bob, now: start })).toEqual(noLongerValid);
  });

  it("findInvitation tells pending, accepted, revoked and expired apart", async () => {
    expect(invitationLifetimeMs).toBe(7 * 24 * hour);
    const pending = tokenOf(await invite("bob@example.com", "member"));
    const view = await findInvitation(db, pending, start);
    expect(view).toEqual({
      id: expect.any(Number),
      email: "bob@example.com",
      role: "member",
      status: "pending",
      workspace: { id: workspaceId, slug: "acme", name: "Acme" },
    });
    expect((await findInvitation(db, pending, at(invitationLifetimeMs - second)))!.status).toBe("pending");
    expect((await findInvitation(db, pending, at(invitationLifetimeMs + second)))!.status).toBe("expired");

    const revoked = tokenOf(await invite("eve@example.com", "viewer"));
    await revokeInvitation(db, workspaceId, (await findInvitation(db, revoked, start))!.id, start);
    expect((await findInvitation(db, revoked, at(hour)))!.status).toBe("revoked");
    // Revoked stays revoked after the expiry date too.
    expect((await findInvitation(db, revoked, at(invitationLifetimeMs + second)))!.status).toBe("revoked");

    await acceptInvitation(db, { token: pending, user: bob, now: at(hour) });
    expect((await findInvitation(db, pending, at(2 * hour)))!.status).toBe("accepted");
    expect((await findInvitation(db, pending, at(invitationLifetimeMs + second)))!.status).toBe("accepted");

    expect(await findInvitation(db, newToken(), start)).toBeNull();
  });

  // Invitations made while there was room must not all go through later (docs/product.md, Limits: 1,000 members).
  it("never lets the workspace grow past the member limit", async () => {
    const now = start.toISOString();
    // Fill the workspace up to one below the limit: room for exactly one more member.
    const fillers = maxMembersPerWorkspace - 1 - (await memberCount(db, workspaceId));
    for (let offset = 0; offset < fillers; offset += 250) {
      const batch = Array.from({ length: Math.min(250, fillers - offset) }, (_, i) => ({
        email: `filler${offset + i}@example.com`,
        name: `Filler ${offset + i}`,
        handle: `filler-${offset + i}`,
        password_hash: "x",
        is_instance_admin: 0,
        created_at: now,
        updated_at: now,
      }));
      const ids = await db.insertInto("users").values(batch).returning("id").execute();
      await db
        .insertInto("memberships")
        .values(ids.map(({ id }) => ({ workspace_id: workspaceId, user_id: id, role: "member" as const, created_at: now, updated_at: now })))
        .execute();
    }
    expect(await memberCount(db, workspaceId)).toBe(maxMembersPerWorkspace - 1);

    const forBob = tokenOf(await invite("bob@example.com", "member"));
    const forEve = tokenOf(await invite("eve@example.com", "member"));
    expect(await acceptInvitation(db, { token: forBob, user: bob, now: at(hour) })).toMatchObject({ ok: true });
    await acceptInvitation(db, { token: forEve, user: eve, now: at(hour) });
    expect(await memberCount(db, workspaceId)).toBeLessThanOrEqual(maxMembersPerWorkspace);
  });
});

// docs/product.md, States and issue 11 (20): an invitation link shows its email, workspace and role only to the
// invitee: signed in with that email, or signed out while no account has it (they can sign up with
// it). Anyone else holding the link learns none of them.
describe.each(testDialects)("invitation links over HTTP on %s", (dialect) => {
  const password = "correct horse battery";
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  let invite: (email: string) => Promise<string>;
  const signedIn: Record<"eve" | "carol", BrowserlessClient> = {} as never;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    for (const name of ["Olivia", "Eve", "Carol"]) {
      const client = new BrowserlessClient(server.url);
      expect((await client.post("/signup", { name, email: `${name.toLowerCase()}@example.com`, password })).status).toBe(302);
      if (name !== "Olivia") signedIn[name.toLowerCase() as "eve" | "carol"] = client;
    }
    handle = database.open();
    const owner = (await handle.db.selectFrom("users").select("id").where("email", "=", "olivia@example.com").executeTakeFirstOrThrow()).id;
    await createWorkspace(handle.db, { name: "Rocket Garden", slug: "rockets", ownerId: owner, now: new Date() });
    const workspaceId = (await findWorkspaceAccess(handle.db, "rockets", owner))!.id;
    invite = async (email) =>
      tokenOf(await createInvitation(handle.db, { workspaceId, email, role: "viewer", invitedBy: owner, actorRole: "owner", now: new Date() }));
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  /** A page's HTML without the comments React puts between adjacent pieces of text. */
  const pageAt = async (client: BrowserlessClient, path: string) => (await (await client.get(path)).text()).replaceAll("<!-- -->", "");

  /** Nothing of the invitation — not in the page, nor in the data it carries for JavaScript. */
  function expectNoDetails(html: string, email: string) {
    expect(html).not.toContain(email);
    expect(html).not.toContain("Rocket Garden");
    expect(html).not.toMatch(/viewer/i);
  }

  it("shows a signed-out visitor who can sign up with its email what it is, and lets them join by signing up", async () => {
    const token = await invite("bob@example.com");
    const visitor = new BrowserlessClient(server.url);
    const page = await pageAt(visitor, `/invitations/${token}`);
    expect(page).toContain("bob@example.com is invited to <strong>Rocket Garden</strong> as viewer.");
    const signup = await pageAt(visitor, `/signup?invitation=${token}`);
    expect(signup).toContain("You are invited to <strong>Rocket Garden</strong>");
    expect(signup).toContain('value="bob@example.com"');
    const joined = await visitor.post("/signup", { name: "Bob", email: "bob@example.com", password, invitation: token });
    expect(joined.headers.get("location")).toBe("/w/rockets");
  });

  it("shows the invitee, signed in, what it is, and lets them accept it", async () => {
    const token = await invite("carol@example.com");
    const page = await pageAt(signedIn.carol, `/invitations/${token}`);
    expect(page).toContain("carol@example.com is invited to <strong>Rocket Garden</strong> as viewer.");
    expect(page).toContain("Accept invitation");
    const accepted = await signedIn.carol.post(`/invitations/${token}`, {});
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe("/w/rockets");
  });

  it("shows anyone else signed in a neutral message, lets them sign out, and refuses their acceptance without naming the invitee", async () => {
    const token = await invite("dan@example.com");
    expect((await signedIn.eve.get(`/invitations/${token}`)).status).toBe(200);
    const html = await pageAt(signedIn.eve, `/invitations/${token}`);
    expectNoDetails(html, "dan@example.com");
    expect(html).toContain("This invitation is for another email address.");
    expect(html).toContain("You are signed in as eve@example.com.");
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(main).toMatch(/<form[^>]*action="\/logout"[^>]*>[^]*?Sign out<\/button><\/form>/);
    expectNoDetails(await (await signedIn.eve.get(`/invitations/${token}.data`)).text(), "dan@example.com");

    const refused = await signedIn.eve.post(`/invitations/${token}`, {});
    expect(refused.status).toBe(400);
    const refusal = await refused.text();
    expectNoDetails(refusal, "dan@example.com");
    expect(refusal).toContain("Sign in with the one it was sent to.");
    expect((await findInvitation(handle.db, token, new Date()))!.status).toBe("pending");
  });

  it("asks a signed-out visitor to sign in when the invitee already has an account", async () => {
    const token = await invite("eve@example.com");
    const visitor = new BrowserlessClient(server.url);
    const html = await pageAt(visitor, `/invitations/${token}`);
    expectNoDetails(html, "eve@example.com");
    expect(html).toContain("Sign in to see this invitation.");
    expect(html).toContain(`href="/login?redirectTo=%2Finvitations%2F${token}"`);
    expectNoDetails(await (await visitor.get(`/signup?invitation=${token}`)).text(), "eve@example.com");
    // Signed in as the invitee, it is theirs to see.
    expect(await pageAt(signedIn.eve, `/invitations/${token}`)).toContain("eve@example.com is invited to <strong>Rocket Garden</strong>");
  });

  it("shows whoever signs up without the link their pending invitations where they land, each joined with one POST", async () => {
    await invite("gus@example.com");
    const carolId = (await handle.db.selectFrom("users").select("id").where("email", "=", "carol@example.com").executeTakeFirstOrThrow()).id;
    await createWorkspace(handle.db, { name: "Beta Base", slug: "beta-base", ownerId: carolId, now: new Date() });
    const betaId = (await findWorkspaceAccess(handle.db, "beta-base", carolId))!.id;
    tokenOf(await createInvitation(handle.db, { workspaceId: betaId, email: "gus@example.com", role: "member", invitedBy: carolId, actorRole: "owner", now: new Date() }));

    const gus = new BrowserlessClient(server.url);
    const signedUp = await gus.post("/signup", { name: "Gus", email: "gus@example.com", password });
    expect(signedUp.headers.get("location")).toBe("/w/new");
    const invitationIdIn = (html: string, workspace: string) => new RegExp(`<li aria-label="${workspace}"[^>]*>[\\s\\S]*?name="invitationId" value="(\\d+)"`).exec(html)?.[1];

    // "Create workspace" names both, newest first, with who invited and as what; nothing to go back to yet.
    const landing = await pageAt(gus, "/w/new");
    expect(landing).toContain("You are invited to 2 workspaces");
    expect(landing.indexOf('aria-label="Beta Base"')).toBeLessThan(landing.indexOf('aria-label="Rocket Garden"'));
    expect(landing).toContain("Olivia invited you as viewer.");
    expect(landing).toContain("Carol invited you as member.");
    expect(landing).toMatch(/<form[^>]*action="\/w\/new"[^>]*method="post"[^>]*><input type="hidden" name="invitationId" value="\d+"\/><button type="submit" value="accept-invitation"[^>]*name="intent">Join/);
    expect(landing).not.toContain("Back to workspace");
    expect(await pageAt(gus, "/settings")).not.toContain("Back to workspace");
    // The workspace picker lists them too.
    const picker = await pageAt(gus, "/");
    expect(picker).toContain("Join one you are invited to");
    const rocketsInvitation = invitationIdIn(picker, "Rocket Garden")!;
    const betaInvitation = invitationIdIn(landing, "Beta Base")!;
    expect(rocketsInvitation).toMatch(/^\d+$/);

    // Someone else holding the id joins nothing.
    const stolen = await signedIn.eve.post("/w/new", { intent: "accept-invitation", invitationId: rocketsInvitation });
    expect(stolen.status).toBe(400);
    expect(await stolen.text()).toContain("This invitation is for another email address.");
    expect(await findWorkspaceAccess(handle.db, "rockets", (await handle.db.selectFrom("users").select("id").where("email", "=", "eve@example.com").executeTakeFirstOrThrow()).id)).toBeUndefined();

    // Revoked meanwhile: refused on the page, which lists what is left.
    await revokeInvitation(handle.db, betaId, Number(betaInvitation), new Date());
    const late = await gus.post("/w/new", { intent: "accept-invitation", invitationId: betaInvitation });
    expect(late.status).toBe(400);
    const latePage = (await late.text()).replaceAll("<!-- -->", "");
    expect(latePage).toContain("This invitation is no longer valid. Ask for a new one.");
    expect(latePage).toContain("You are invited to a workspace");
    expect(latePage).not.toContain('aria-label="Beta Base"');

    const joined = await gus.post("/w/new", { intent: "accept-invitation", invitationId: rocketsInvitation });
    expect(joined.status).toBe(302);
    expect(joined.headers.get("location")).toBe("/w/rockets");
    expect(await pageAt(gus, "/w/rockets")).toContain("Welcome! You joined the workspace.");
    // Now there is a workspace to go back to, and nothing left to join.
    const after = await pageAt(gus, "/w/new");
    expect(after).toContain("Back to workspace");
    expect(after).not.toContain("You are invited");
  });

  it("tells anyone that an invitation is no longer valid, and only the invitee what it was", async () => {
    const token = await invite("fay@example.com");
    const { id } = (await findInvitation(handle.db, token, new Date()))!;
    const workspaceId = (await handle.db.selectFrom("workspaces").select("id").where("slug", "=", "rockets").executeTakeFirstOrThrow()).id;
    await revokeInvitation(handle.db, workspaceId, id, new Date());
    const html = await pageAt(signedIn.eve, `/invitations/${token}`);
    expect(html).toContain("This invitation was revoked. Ask for a new one.");
    expectNoDetails(html, "fay@example.com");
    expect((await new BrowserlessClient(server.url).get("/invitations/not-a-real-token")).status).toBe(404);
  });
});
