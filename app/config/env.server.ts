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
  /** Where server errors and browser events are also exported over OTLP/HTTP; `undefined`: nowhere. */
  otlp: OtlpExport | undefined;
  /** The address people reach Cairn at (`https://cairn.example.com`), for links that leave the page (mail). */
  publicUrl: string | undefined;
  /** How mail is sent; `undefined`: Cairn sends none. */
  mail: MailConfig | undefined;
  webhooks: WebhookConfig;
  /** How long a claim on outbox work holds unless its instance renews it (JOB_LEASE_SECONDS). */
  jobLeaseMs: number;
  /** Requests each API token may make a minute (API_RATE_LIMIT). */
  apiRatePerMinute: number;
  attachments: AttachmentLimits;
  /** What start-up logs as warnings: values that work but will likely let the operator down. */
  warnings: string[];
};

/** docs/product.md, Limits: how large uploaded files may be. */
export type AttachmentLimits = {
  /** Each file (ATTACHMENT_MAX_BYTES). */
  maxBytes: number;
  /** All of a workspace's files together (ATTACHMENT_WORKSPACE_MAX_BYTES). */
  workspaceMaxBytes: number;
};

export type WebhookConfig = {
  /** Seconds to wait before each retry of a failed delivery; after the last one it has failed. */
  retryDelaysSeconds: number[];
  /** Deliver to loopback, private, link-local and metadata addresses too (tests, a LAN-only install). */
  allowPrivate: boolean;
};

export type MailConfig = {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://…:465`. */
  smtpUrl: string;
  /** The From of every mail: `Cairn <cairn@example.com>` or `cairn@example.com`. */
  from: string;
  publicUrl: string;
};

export type OtlpExport = {
  /** The full URL logs are POSTed to (`…/v1/logs`). */
  logsUrl: string;
  /** How long log records wait to be sent together (OTEL_BLRP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
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

function parseJobLeaseSeconds(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 30;
  if (!/^\d+$/.test(raw) || Number(raw) < 2 || Number(raw) > 600) invalid("JOB_LEASE_SECONDS", "a whole number of seconds from 2 to 600", raw);
  return Number(raw);
}

function parseApiRateLimit(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 600;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1_000_000) invalid("API_RATE_LIMIT", "a whole number of requests a minute from 1 to 1000000", raw);
  return Number(raw);
}

const mebibyte = 1024 * 1024;

/**
 * A number of bytes from `min` up to `max`. Files are kept in the database (decision record 024):
 * 100 MiB a file stays well under SQLite's and PostgreSQL's 1 GB a value.
 */
function parseBytes(variable: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) invalid(variable, `a whole number of bytes from 1 to ${max}`, raw);
  return Number(raw);
}

function parseAttachmentLimits(env: NodeJS.ProcessEnv): AttachmentLimits {
  return {
    maxBytes: parseBytes("ATTACHMENT_MAX_BYTES", env.ATTACHMENT_MAX_BYTES, 10 * mebibyte, 100 * mebibyte),
    workspaceMaxBytes: parseBytes("ATTACHMENT_WORKSPACE_MAX_BYTES", env.ATTACHMENT_WORKSPACE_MAX_BYTES, 1024 * mebibyte, Number.MAX_SAFE_INTEGER),
  };
}

function parseHost(raw: string | undefined): string {
  if (raw === undefined || raw === "") return "0.0.0.0";
  if (!(isIP(raw) || /^[a-zA-Z0-9.-]+$/.test(raw))) invalid("HOST", "an IP address or host name", raw);
  return raw;
}

function parseHttpUrl(variable: string, raw: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    invalid(variable, "an http:// or https:// URL, such as http://127.0.0.1:4318", raw);
  }
  return url;
}

/**
 * The standard OpenTelemetry variables, read as the SDK reads them: OTEL_EXPORTER_OTLP_LOGS_ENDPOINT
 * is the logs URL itself; OTEL_EXPORTER_OTLP_ENDPOINT is the collector's base URL, to which
 * `v1/logs` is appended. With neither, nothing is exported (docs/product.md, Monitoring: no third-party calls by default).
 */
function parseOtlpLogsUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: baseRaw, OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: logsRaw } = env;
  const base = baseRaw ? parseHttpUrl("OTEL_EXPORTER_OTLP_ENDPOINT", baseRaw) : undefined;
  if (logsRaw) return parseHttpUrl("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", logsRaw).href;
  if (!base) return undefined;
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return new URL("v1/logs", base).href;
}

/** @opentelemetry/sdk-logs does not read OTEL_BLRP_SCHEDULE_DELAY itself; the default is the OpenTelemetry spec's. */
function parseScheduleDelay(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 1000;
  if (!/^\d+$/.test(raw) || Number(raw) > 600_000) {
    invalid("OTEL_BLRP_SCHEDULE_DELAY", "a whole number of milliseconds from 0 to 600000", raw);
  }
  return Number(raw);
}

function parseOtlp(env: NodeJS.ProcessEnv): OtlpExport | undefined {
  const logsUrl = parseOtlpLogsUrl(env);
  const scheduleDelayMs = parseScheduleDelay(env.OTEL_BLRP_SCHEDULE_DELAY);
  return logsUrl === undefined ? undefined : { logsUrl, scheduleDelayMs };
}

/** An absolute http(s) base URL without query or fragment; kept without its trailing slash. */
function parsePublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username) {
    invalid("PUBLIC_URL", "the http:// or https:// address people open Cairn at, such as https://cairn.example.com", raw);
  }
  return url.href.replace(/\/+$/, "");
}

/** `name@domain`, alone or as `Name <name@domain>`. */
const mailbox = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;

function parseMail(env: NodeJS.ProcessEnv, publicUrl: string | undefined): MailConfig | undefined {
  const { SMTP_URL: smtpUrl, MAIL_FROM: fromRaw } = env;
  if (smtpUrl === undefined || smtpUrl === "") return undefined;
  const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : undefined;
  if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || !url.hostname) {
    invalid("SMTP_URL", "an smtp:// or smtps:// URL, such as smtp://user:password@mail.example.com:587", redactPassword(smtpUrl));
  }
  if (publicUrl === undefined) {
    throw new ConfigError("Invalid configuration: PUBLIC_URL must be set when SMTP_URL is, so that links in mail lead back to Cairn (such as https://cairn.example.com).");
  }
  // The default is not checked as MAIL_FROM is: the operator did not write it (mailWarnings says when it is poor).
  const from = fromRaw || `Cairn <${defaultSender(publicUrl)}>`;
  if (fromRaw && !mailbox.test(fromRaw)) invalid("MAIL_FROM", "an address such as Cairn <cairn@example.com>", fromRaw);
  return { smtpUrl, from, publicUrl };
}

const defaultSender = (publicUrl: string) => `cairn@${new URL(publicUrl).hostname}`;

/**
 * The default sender takes PUBLIC_URL's host, which for an address like http://192.168.1.20:3000 or
 * http://localhost:3000 makes `cairn@192.168.1.20`: a sender many mail servers refuse, or file as
 * spam. Cairn still starts (a LAN install may relay through a server that takes it), and says so.
 */
function mailWarnings(env: NodeJS.ProcessEnv, mail: MailConfig | undefined): string[] {
  if (!mail || env.MAIL_FROM) return [];
  const host = new URL(mail.publicUrl).hostname;
  if (!isIP(host.replace(/^\[|\]$/g, "")) && host.includes(".")) return [];
  return [
    `Mail will come from ${defaultSender(mail.publicUrl)}, an address many mail servers refuse: set MAIL_FROM to a sender of your own domain, such as "Cairn <cairn@example.com>".`,
  ];
}

/** A URL as an error message may show it: its password hidden. */
function redactPassword(raw: string): string {
  return raw.replace(/^([^:/]+:\/\/[^:@/]*:)[^@/]*@/, "$1***@");
}

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h: the Standard Webhooks specification's example schedule. */
export const defaultWebhookRetryDelays = [5, 300, 1800, 7200, 18000, 36000];

/** WEBHOOK_RETRY_DELAYS: 1 to 20 comma-separated whole seconds, each at most a day. */
export function parseWebhookRetryDelays(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === "") return defaultWebhookRetryDelays;
  const parts = raw.split(",").map((part) => part.trim());
  if (parts.length > 20 || parts.some((part) => !/^\d{1,6}$/.test(part) || Number(part) > 86_400)) {
    invalid("WEBHOOK_RETRY_DELAYS", "1 to 20 comma-separated whole numbers of seconds, each at most 86400, such as 5,300,1800", raw);
  }
  return parts.map(Number);
}

function parseBoolean(variable: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  invalid(variable, "true or false", raw);
}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const publicUrl = parsePublicUrl(env.PUBLIC_URL);
  const mail = parseMail(env, publicUrl);
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
    otlp: parseOtlp(env),
    publicUrl,
    mail,
    webhooks: {
      retryDelaysSeconds: parseWebhookRetryDelays(env.WEBHOOK_RETRY_DELAYS),
      allowPrivate: parseBoolean("WEBHOOK_ALLOW_PRIVATE", env.WEBHOOK_ALLOW_PRIVATE),
    },
    jobLeaseMs: parseJobLeaseSeconds(env.JOB_LEASE_SECONDS) * 1000,
    apiRatePerMinute: parseApiRateLimit(env.API_RATE_LIMIT),
    attachments: parseAttachmentLimits(env),
    warnings: mailWarnings(env, mail),
  };
}
