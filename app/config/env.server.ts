import path from "node:path";
import { isIP } from "node:net";

/** Settings read once at start-up from the environment. */
export type Config = {
  port: number;
  host: string;
  /** `undefined` means the embedded SQLite database in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** `undefined` means: generate one and keep it in `dataDir`. */
  sessionSecret: string | undefined;
  logLevel: LogLevel;
  /** Passed to Express's `trust proxy` setting. */
  trustProxy: boolean | number | string[];
  /** How long /readyz answers 503 before a stopping server closes its port, so load balancers notice. */
  drainSeconds: number;
  production: boolean;
};

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

/** A configuration value the operator must fix; its message is one line meant for them. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

function invalid(variable: string, expected: string, got: string): never {
  throw new ConfigError(`Invalid configuration: ${variable} must be ${expected} (got ${JSON.stringify(got)}).`);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) invalid("PORT", "a whole number from 1 to 65535", raw);
  return port;
}

function parseDatabaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^postgres(ql)?:\/\/.+/.test(raw)) invalid("DATABASE_URL", "a postgres:// or postgresql:// URL, or unset for SQLite", raw);
  try {
    new URL(raw);
  } catch {
    invalid("DATABASE_URL", "a valid postgres:// URL", raw);
  }
  return raw;
}

function parseSessionSecret(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw.length < 32) invalid("SESSION_SECRET", "at least 32 characters long", `${raw.length} characters`);
  return raw;
}

function parseLogLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === "") return "info";
  const level = logLevels.find((l) => l === raw.toLowerCase());
  if (!level) invalid("LOG_LEVEL", `one of ${logLevels.join(", ")}`, raw);
  return level;
}

const namedProxyRanges = new Set(["loopback", "linklocal", "uniquelocal"]);

function parseTrustProxy(raw: string | undefined): Config["trustProxy"] {
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split("/");
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= 128);
    if (!(namedProxyRanges.has(entry) || (address && isIP(address) && validBits && extra === undefined))) {
      invalid("TRUST_PROXY", "true, false, a number of hops, or a comma-separated list of IP addresses/CIDR ranges", raw);
    }
  }
  return entries;
}

function parseDrainSeconds(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > 300) invalid("DRAIN_SECONDS", "a whole number of seconds from 0 to 300", raw);
  return Number(raw);
}

function parseHost(raw: string | undefined): string {
  if (raw === undefined || raw === "") return "0.0.0.0";
  if (!(isIP(raw) || /^[a-zA-Z0-9.-]+$/.test(raw))) invalid("HOST", "an IP address or host name", raw);
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  return {
    port: parsePort(env.PORT),
    host: parseHost(env.HOST),
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    sessionSecret: parseSessionSecret(env.SESSION_SECRET),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    drainSeconds: parseDrainSeconds(env.DRAIN_SECONDS),
    production: env.NODE_ENV !== "development",
  };
}
