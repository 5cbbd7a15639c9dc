import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Database, DatabaseHandle } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";

const fileName = "session-secret";
const newSecret = () => randomBytes(32).toString("base64url");

/**
 * The secret that signs cookies: SESSION_SECRET when set, otherwise one generated on first start and
 * kept where every instance finds it again, so that restarts sign nobody out and a cookie from one
 * instance is good on the others. On PostgreSQL that is the database, since instances on several
 * machines share it and not a DATA_DIR; on SQLite it is DATA_DIR, beside the database file. Read
 * after the migrations, which make the table it is kept in.
 */
export async function resolveSessionSecret(options: {
  configured: string | undefined;
  dataDir: string;
  database: DatabaseHandle;
  logger: Logger;
}): Promise<string> {
  if (options.configured) return options.configured;
  return options.database.dialect === "postgres"
    ? secretInDatabase(options.database.db, options.logger)
    : secretInDataDir(options.dataDir, options.logger);
}

async function secretInDatabase(db: Database, logger: Logger): Promise<string> {
  // Of instances starting together, one inserts; the others' inserts wait for it, then do nothing.
  const generated = await db
    .insertInto("instance_secrets")
    .values({ name: "session", value: newSecret(), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("name").doNothing())
    .returning("value")
    .executeTakeFirst();
  if (generated) {
    logger.info("SESSION_SECRET is not set: generated one and stored it in the database, which every instance shares.");
    return generated.value;
  }
  const stored = await db.selectFrom("instance_secrets").select("value").where("name", "=", "session").executeTakeFirstOrThrow();
  return stored.value;
}

async function secretInDataDir(dataDir: string, logger: Logger): Promise<string> {
  const file = path.join(dataDir, fileName);
  const kept = await readSecretFile(file);
  if (kept) return kept;
  await mkdir(dataDir, { recursive: true });
  // Written whole to a file of our own, then linked into place, which fails if the file exists: of
  // two instances starting on one DATA_DIR, one publishes its secret and the other reads all of it.
  const secret = newSecret();
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(draft, `${secret}\n`, { mode: 0o600 });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readSecretFile(file))!;
  } finally {
    await unlink(draft);
  }
  logger.warn({ file }, "SESSION_SECRET is not set: generated one and stored it in DATA_DIR.");
  return secret;
}

async function readSecretFile(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
