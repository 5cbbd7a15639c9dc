import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "~/logging/logger.server";

const fileName = "session-secret";

/**
 * The secret that signs cookies: SESSION_SECRET when set, otherwise one generated on first start and
 * kept in DATA_DIR so that restarts do not sign everybody out.
 */
export async function resolveSessionSecret(options: {
  configured: string | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<string> {
  if (options.configured) return options.configured;
  const file = path.join(options.dataDir, fileName);
  const secret = randomBytes(32).toString("base64url");
  await mkdir(options.dataDir, { recursive: true });
  try {
    // Exclusive create: of two instances starting on one DATA_DIR, one writes and both use its secret.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readFile(file, "utf8")).trim();
  }
  options.logger.warn(
    { file },
    "SESSION_SECRET is not set: generated one and stored it in DATA_DIR. Set SESSION_SECRET when running several instances.",
  );
  return secret;
}
