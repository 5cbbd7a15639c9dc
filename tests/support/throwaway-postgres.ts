import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./server";

/**
 * A PostgreSQL cluster of the test's own, for tests that stop the database under a running Cairn:
 * the shared server at TEST_DATABASE_URL serves other tests at the same time and must never stop.
 */
export type ThrowawayPostgres = {
  /** postgres://… of its `postgres` database, on 127.0.0.1. */
  url: string;
  /** `pg_ctl -m immediate stop`: every backend is killed, as in a crash or a lost machine. */
  stopAbruptly(): Promise<void>;
  /** Starts it again on the same port (after an abrupt stop, crash recovery runs first). */
  start(): Promise<void>;
  /** Stops it if it runs, and deletes its files. */
  remove(): Promise<void>;
};

/**
 * Where initdb and pg_ctl are: Debian's /usr/lib/postgresql/<newest>/bin, or the PATH. Undefined
 * when no PostgreSQL server is installed.
 */
export function postgresBinDir(): string | undefined {
  const debianRoot = "/usr/lib/postgresql";
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((version) => existsSync(path.join(debianRoot, version, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(debianRoot, versions[0], "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  return undefined;
}

/** initdb and postgres refuse to run as root: as root, they run as the `postgres` user. */
function asClusterOwner(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

/** Runs without blocking the test's event loop, so that load it generates goes on meanwhile. */
async function run(command: string, args: string[]): Promise<void> {
  const [file, fileArgs] = asClusterOwner(command, args);
  await promisify(execFile)(file, fileArgs);
}

/** initdb a new cluster in a temporary directory and start it on a free port of 127.0.0.1. */
export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "cairn-throwaway-pg-"));
  if (process.getuid?.() === 0) {
    const postgresUid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, postgresUid, postgresUid);
  }
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "postgres.log");
  const port = await freePort();
  const pgCtl = path.join(binDir, "pg_ctl");
  let running = false;

  // Without fsync: nothing here has to survive the machine, only the stop of the server.
  await run(path.join(binDir, "initdb"), ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;

  async function start() {
    try {
      await run(pgCtl, ["-D", dataDir, "-o", serverOptions, "-l", logFile, "-w", "-t", "120", "start"]);
    } catch (error) {
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2000) : "";
      throw new Error(`PostgreSQL did not start: ${String(error)}\n${log}`, { cause: error });
    }
    running = true;
  }

  async function stopAbruptly() {
    await run(pgCtl, ["-D", dataDir, "-m", "immediate", "-w", "-t", "120", "stop"]);
    running = false;
  }

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stopAbruptly,
    start,
    async remove() {
      if (running) await stopAbruptly();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
