import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "~/config/env.server";

describe("loadConfig", () => {
  it("has defaults for an empty environment", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "0.0.0.0",
      databaseUrl: undefined,
      dataDir: path.resolve("./data"),
      sessionSecret: undefined,
      logLevel: "info",
      trustProxy: false,
      drainSeconds: 0,
      production: true,
      otlp: undefined,
      publicUrl: undefined,
      mail: undefined,
      webhooks: { retryDelaysSeconds: [5, 300, 1800, 7200, 18000, 36000], allowPrivate: false },
      jobLeaseMs: 30_000,
      apiRatePerMinute: 600,
      attachments: { maxBytes: 10 * 1024 * 1024, workspaceMaxBytes: 1024 * 1024 * 1024 },
      warnings: [],
    });
  });

  it("reads WEBHOOK_RETRY_DELAYS as comma-separated seconds and WEBHOOK_ALLOW_PRIVATE as true or false", () => {
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: "1,1,1" }).webhooks.retryDelaysSeconds).toEqual([1, 1, 1]);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: " 5, 60 ,3600" }).webhooks.retryDelaysSeconds).toEqual([5, 60, 3600]);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: "0" }).webhooks.retryDelaysSeconds).toEqual([0]);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: "" }).webhooks.retryDelaysSeconds).toEqual([5, 300, 1800, 7200, 18000, 36000]);
    for (const bad of ["1,,2", "-1", "1.5", "abc", "5s", "1,2,", "86401", "1e3", "0x10", Array(21).fill("1").join(",")]) {
      expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: bad }), bad).toThrow("WEBHOOK_RETRY_DELAYS must be");
    }
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: "true" }).webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: "false" }).webhooks.allowPrivate).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: "yes" })).toThrow("WEBHOOK_ALLOW_PRIVATE must be true or false");
  });

  it("reads JOB_LEASE_SECONDS as whole seconds from 2 to 600", () => {
    expect(loadConfig({ JOB_LEASE_SECONDS: "2" }).jobLeaseMs).toBe(2000);
    expect(loadConfig({ JOB_LEASE_SECONDS: "600" }).jobLeaseMs).toBe(600_000);
    for (const bad of ["0", "1", "601", "1.5", "30s", "-5"]) {
      expect(() => loadConfig({ JOB_LEASE_SECONDS: bad }), bad).toThrow("JOB_LEASE_SECONDS must be a whole number of seconds from 2 to 600");
    }
  });

  it("sends mail only with SMTP_URL, which needs PUBLIC_URL for its links, and names a sender", () => {
    expect(loadConfig({ PUBLIC_URL: "https://cairn.example.com/" })).toMatchObject({ publicUrl: "https://cairn.example.com", mail: undefined });
    expect(loadConfig({ MAIL_FROM: "x@example.com" }).mail).toBeUndefined();
    expect(loadConfig({ SMTP_URL: "smtp://u:p@mail.example.com:587", PUBLIC_URL: "https://cairn.example.com/team" }).mail).toEqual({
      smtpUrl: "smtp://u:p@mail.example.com:587",
      from: "Cairn <cairn@cairn.example.com>",
      publicUrl: "https://cairn.example.com/team",
    });
    expect(loadConfig({ SMTP_URL: "smtps://mail.example.com", PUBLIC_URL: "http://127.0.0.1:3000", MAIL_FROM: "Tracker <t@example.org>" }).mail?.from).toBe("Tracker <t@example.org>");
    expect(() => loadConfig({ SMTP_URL: "smtp://mail.example.com" })).toThrow("PUBLIC_URL must be set when SMTP_URL is");
  });

  it("warns, without refusing to start, when mail would come from an IP address or localhost for want of MAIL_FROM", () => {
    const smtp = { SMTP_URL: "smtp://mail.example.com" };
    const warning = (host: string) =>
      `Mail will come from cairn@${host}, an address many mail servers refuse: set MAIL_FROM to a sender of your own domain, such as "Cairn <cairn@example.com>".`;
    expect(loadConfig({ ...smtp, PUBLIC_URL: "http://127.0.0.1:3000" })).toMatchObject({ mail: { from: "Cairn <cairn@127.0.0.1>" }, warnings: [warning("127.0.0.1")] });
    expect(loadConfig({ ...smtp, PUBLIC_URL: "http://192.168.1.20:3000" }).warnings).toEqual([warning("192.168.1.20")]);
    expect(loadConfig({ ...smtp, PUBLIC_URL: "http://[::1]:3000" }).warnings).toEqual([warning("[::1]")]);
    // localhost has no dot: refused as MAIL_FROM would be, it used to stop start-up, naming a variable nobody set.
    expect(loadConfig({ ...smtp, PUBLIC_URL: "http://localhost:3000" })).toMatchObject({ mail: { from: "Cairn <cairn@localhost>" }, warnings: [warning("localhost")] });
    // A sender of one's own, a real domain, or no mail at all: nothing to say.
    expect(loadConfig({ ...smtp, PUBLIC_URL: "http://127.0.0.1:3000", MAIL_FROM: "Tracker <t@example.org>" }).warnings).toEqual([]);
    expect(loadConfig({ ...smtp, PUBLIC_URL: "https://cairn.example.com" }).warnings).toEqual([]);
    expect(loadConfig({ PUBLIC_URL: "http://127.0.0.1:3000" }).warnings).toEqual([]);
  });

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgres://cairn@db.example:5432/cairn",
      DATA_DIR: "/var/lib/cairn",
      SESSION_SECRET: "x".repeat(40),
      LOG_LEVEL: "DEBUG",
      TRUST_PROXY: "10.0.0.0/8, loopback",
      DRAIN_SECONDS: "5",
      API_RATE_LIMIT: "5000",
      ATTACHMENT_MAX_BYTES: "1048576",
      ATTACHMENT_WORKSPACE_MAX_BYTES: "53687091200",
      NODE_ENV: "development",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: "postgres://cairn@db.example:5432/cairn",
      dataDir: "/var/lib/cairn",
      logLevel: "debug",
      trustProxy: ["10.0.0.0/8", "loopback"],
      drainSeconds: 5,
      production: false,
      apiRatePerMinute: 5000,
      attachments: { maxBytes: 1048576, workspaceMaxBytes: 53687091200 },
    });
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
  });

  it("exports over OTLP only when an endpoint is set, appending v1/logs to the base URL as the SDK does", () => {
    expect(loadConfig({ OTEL_BLRP_SCHEDULE_DELAY: "100" }).otlp).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).otlp).toEqual({
      logsUrl: "http://collector:4318/v1/logs",
      scheduleDelayMs: 1000,
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example/otlp", OTEL_BLRP_SCHEDULE_DELAY: "100" }).otlp).toEqual({
      logsUrl: "https://otel.example/otlp/v1/logs",
      scheduleDelayMs: 100,
    });
    // The logs endpoint is the URL itself, and wins over the base.
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "http://logs:9000/in" };
    expect(loadConfig(both).otlp?.logsUrl).toBe("http://logs:9000/in");
  });

  it.each([
    ["PORT", "abc", "Invalid configuration: PORT must be a whole number from 1 to 65535 (got \"abc\")."],
    ["PORT", "70000", "PORT must be a whole number from 1 to 65535"],
    ["DATABASE_URL", "mysql://localhost/cairn", "DATABASE_URL must be a postgres:// or postgresql:// URL"],
    ["SESSION_SECRET", "short", "SESSION_SECRET must be at least 32 characters long"],
    ["LOG_LEVEL", "loud", "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent"],
    ["TRUST_PROXY", "everyone", "TRUST_PROXY must be true, false, a number of hops"],
    ["DRAIN_SECONDS", "-1", "DRAIN_SECONDS must be a whole number of seconds from 0 to 300"],
    ["API_RATE_LIMIT", "0", "API_RATE_LIMIT must be a whole number of requests a minute from 1 to 1000000"],
    ["API_RATE_LIMIT", "fast", "API_RATE_LIMIT must be a whole number of requests a minute"],
    ["ATTACHMENT_MAX_BYTES", "10MB", "ATTACHMENT_MAX_BYTES must be a whole number of bytes from 1 to 104857600"],
    ["ATTACHMENT_MAX_BYTES", "104857601", "ATTACHMENT_MAX_BYTES must be a whole number of bytes from 1 to 104857600"],
    ["ATTACHMENT_WORKSPACE_MAX_BYTES", "0", "ATTACHMENT_WORKSPACE_MAX_BYTES must be a whole number of bytes"],
    ["HOST", "not a host!", "HOST must be an IP address or host name"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318", "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "grpc://collector:4317", "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL"],
    ["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "not a url", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT must be an http:// or https:// URL"],
    ["PUBLIC_URL", "cairn.example.com", "PUBLIC_URL must be the http:// or https:// address people open Cairn at"],
    ["PUBLIC_URL", "https://cairn.example.com/?a=1", "PUBLIC_URL must be the http:// or https:// address"],
    ["SMTP_URL", "http://mail.example.com", "SMTP_URL must be an smtp:// or smtps:// URL"],
    ["OTEL_BLRP_SCHEDULE_DELAY", "soon", "OTEL_BLRP_SCHEDULE_DELAY must be a whole number of milliseconds from 0 to 600000"],
  ])("refuses %s=%s with one clear line", (variable, value, message) => {
    let error: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it("refuses a bad MAIL_FROM, and never shows SMTP_URL's password", () => {
    expect(() => loadConfig({ SMTP_URL: "smtp://m.example.com", PUBLIC_URL: "https://c.example.com", MAIL_FROM: "not an address" })).toThrow("MAIL_FROM must be an address");
    expect(() => loadConfig({ SMTP_URL: "smtp://u:secret@m.example.com", PUBLIC_URL: "https://c.example.com", MAIL_FROM: "a@b.example\r\nBcc: x@y.example" })).toThrow(ConfigError);
    let message = "";
    try {
      loadConfig({ SMTP_URL: "ftp://user:hunter2@mail.example.com" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("ftp://user:***@mail.example.com");
    expect(message).not.toContain("hunter2");
  });
});
