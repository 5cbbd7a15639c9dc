import pg from "pg";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  authenticate,
  checkPassword,
  createAccount,
  emailTakenMessage,
  rememberLastWorkspace,
  setPassword,
  updateProfile,
} from "~/auth/accounts.server";
import { handleTakenMessage } from "~/auth/handles.server";
import { hashPassword, verifyPassword } from "~/auth/password.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects, type TestDatabase, waitForLockWaiters } from "../support/databases";
import { insertUser } from "../support/users";
import { seedTestWorkspace } from "../support/workspaces";

// scrypt N=2^17 costs ~0.3 s a hash: accounts whose password does not matter are inserted directly.
const start = new Date("2025-03-01T12:00:00.000Z");
const later = new Date("2025-03-02T08:30:00.000Z");
const password = "correct horse battery staple";

let precomputedHash: string;
beforeAll(async () => {
  precomputedHash = await hashPassword("a password nobody types");
});

describe.each(testDialects)("accounts on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
  });

  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  const userRow = (id: number) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("makes the first account the instance admin, and no later one", async () => {
    const first = await createAccount(db, { name: "Ada", email: "ada@example.com", password, now: start });
    const second = await createAccount(db, { name: "Grace", email: "grace@example.com", password, now: later });
    if (!("userId" in first) || !("userId" in second)) throw new Error("expected both accounts to be created");

    expect(await userRow(first.userId)).toMatchObject({
      email: "ada@example.com",
      name: "Ada",
      is_instance_admin: 1,
      last_workspace_id: null,
      created_at: start.toISOString(),
      updated_at: start.toISOString(),
    });
    expect(await userRow(second.userId)).toMatchObject({ email: "grace@example.com", is_instance_admin: 0 });
    // The password is stored hashed, and the hash verifies.
    const { password_hash } = await userRow(first.userId);
    expect(password_hash).not.toContain(password);
    expect(password_hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(await verifyPassword(password, password_hash)).toBe(true);
  });

  if (dialect === "postgres") {
    // Both see no users yet; the unique index on the admin flag makes the second an ordinary account.
    it("makes only one instance admin when the first two sign-ups race", async () => {
      // An uncommitted row with each email makes both INSERTs wait after evaluating their values,
      // the interleaving that two requests arriving together produce by chance.
      const locker = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await locker.connect();
      try {
        await locker.query("begin");
        const now = start.toISOString();
        for (const email of ["ada@example.com", "grace@example.com"]) {
          await locker.query(
            "insert into users (email, name, password_hash, is_instance_admin, created_at, updated_at) values ($1, 'x', 'x', 0, $2, $2)",
            [email, now],
          );
        }
        const both = Promise.all([
          createAccount(db, { name: "Ada", email: "ada@example.com", password, now: start }),
          createAccount(db, { name: "Grace", email: "grace@example.com", password, now: start }),
        ]);
        await waitForLockWaiters(locker, 2);
        await locker.query("rollback");
        expect(await both).toEqual([{ userId: expect.any(Number) }, { userId: expect.any(Number) }]);
      } finally {
        await locker.end();
      }
      const admins = await db.selectFrom("users").select("email").where("is_instance_admin", "=", 1).execute();
      expect(admins).toHaveLength(1);
    });
  }

  it("refuses a second account with the same email as a problem with the email field", async () => {
    await insertUser(db, { name: "Ada", passwordHash: precomputedHash, at: start });
    const result = await createAccount(db, { name: "Impostor", email: "ada@example.com", password, now: later });
    expect(result).toEqual({ field: "email", message: emailTakenMessage });
    expect(await db.selectFrom("users").select("id").execute()).toHaveLength(1);
  });

  it("authenticates the right password, and not a wrong one or an unknown email", async () => {
    const created = await createAccount(db, { name: "Ada", email: "ada@example.com", password, now: start });
    if (!("userId" in created)) throw new Error("expected the account to be created");

    expect(await authenticate(db, "ada@example.com", password)).toEqual({ id: created.userId });
    expect(await authenticate(db, "ada@example.com", "correct horse battery stapler")).toBeNull();
    expect(await authenticate(db, "nobody@example.com", password)).toBeNull();
    expect(await checkPassword(db, created.userId, password)).toBe(true);
    expect(await checkPassword(db, created.userId, "wrong password!")).toBe(false);
  });

  it("gives each account a handle: the one chosen, or one from its email told apart from the others", async () => {
    const handles = [];
    for (const [email, chosen] of [["ada@example.com"], ["ada@other.example"], ["Ada@third.example"], ["grace@example.com", "amazing-grace"]] as const) {
      const created = await createAccount(db, { name: "Someone", email, handle: chosen, password, now: start });
      if (!("userId" in created)) throw new Error(created.message);
      handles.push((await userRow(created.userId)).handle);
    }
    expect(handles).toEqual(["ada", "ada-2", "ada-3", "amazing-grace"]);
    expect(await createAccount(db, { name: "Copycat", email: "copy@example.com", handle: "amazing-grace", password, now: start })).toEqual({
      field: "handle",
      message: handleTakenMessage,
    });
    expect(await db.selectFrom("users").select("email").where("email", "=", "copy@example.com").execute()).toEqual([]);
  });

  it("changes a handle in the profile, and refuses one another account has", async () => {
    const ada = await insertUser(db, { name: "Ada", passwordHash: precomputedHash, at: start });
    await insertUser(db, { name: "Grace", passwordHash: precomputedHash, at: start });
    expect(await updateProfile(db, ada, { name: "Ada", email: "ada@example.com", handle: "grace", now: later })).toEqual({ field: "handle", message: handleTakenMessage });
    expect(await updateProfile(db, ada, { name: "Ada", email: "ada@example.com", handle: "countess", now: later })).toEqual({ ok: true });
    expect(await userRow(ada)).toMatchObject({ handle: "countess" });
    // A form without the field leaves the handle as it is.
    expect(await updateProfile(db, ada, { name: "Ada L", email: "ada@example.com", now: later })).toEqual({ ok: true });
    expect(await userRow(ada)).toMatchObject({ handle: "countess", name: "Ada L" });
  });

  it("updates the profile, and refuses an email another account has", async () => {
    const ada = await insertUser(db, { name: "Ada", passwordHash: precomputedHash, at: start });
    await insertUser(db, { name: "Grace", passwordHash: precomputedHash, at: start });

    expect(await updateProfile(db, ada, { name: "Grace", email: "grace@example.com", now: later })).toEqual({
      field: "email",
      message: emailTakenMessage,
    });
    expect(await userRow(ada)).toMatchObject({ name: "Ada", email: "ada@example.com", updated_at: start.toISOString() });

    // Keeping one's own email is no conflict.
    expect(await updateProfile(db, ada, { name: "Ada King", email: "ada@example.com", now: later })).toEqual({ ok: true });
    expect(await updateProfile(db, ada, { name: "Ada King", email: "ada.king@example.com", now: later })).toEqual({
      ok: true,
    });
    expect(await userRow(ada)).toMatchObject({
      name: "Ada King",
      email: "ada.king@example.com",
      updated_at: later.toISOString(),
    });
  });

  it("setPassword replaces the password: the new one signs in, the old one no longer does", async () => {
    const ada = await insertUser(db, { name: "Ada", passwordHash: precomputedHash, at: start });
    expect(await authenticate(db, "ada@example.com", "a password nobody types")).toEqual({ id: ada });

    await setPassword(db, ada, "a brand new passphrase", later);

    expect(await authenticate(db, "ada@example.com", "a brand new passphrase")).toEqual({ id: ada });
    expect(await authenticate(db, "ada@example.com", "a password nobody types")).toBeNull();
    expect((await userRow(ada)).updated_at).toBe(later.toISOString());
  });

  it("rememberLastWorkspace records the workspace last used", async () => {
    const ada = await insertUser(db, { name: "Ada", passwordHash: precomputedHash, at: start });
    const { id: acme } = await seedTestWorkspace(db, { slug: "acme", at: start });
    const { id: globex } = await seedTestWorkspace(db, { slug: "globex", at: start });

    await rememberLastWorkspace(db, ada, acme);
    expect((await userRow(ada)).last_workspace_id).toBe(acme);
    await rememberLastWorkspace(db, ada, acme);
    expect((await userRow(ada)).last_workspace_id).toBe(acme);
    await rememberLastWorkspace(db, ada, globex);
    expect((await userRow(ada)).last_workspace_id).toBe(globex);
  });
});
