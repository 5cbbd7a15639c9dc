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
    });
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
    });
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
  });

  it.each([
    ["PORT", "abc", "Invalid configuration: PORT must be a whole number from 1 to 65535 (got \"abc\")."],
    ["PORT", "70000", "PORT must be a whole number from 1 to 65535"],
    ["DATABASE_URL", "mysql://localhost/cairn", "DATABASE_URL must be a postgres:// or postgresql:// URL"],
    ["SESSION_SECRET", "short", "SESSION_SECRET must be at least 32 characters long"],
    ["LOG_LEVEL", "loud", "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent"],
    ["TRUST_PROXY", "everyone", "TRUST_PROXY must be true, false, a number of hops"],
    ["DRAIN_SECONDS", "-1", "DRAIN_SECONDS must be a whole number of seconds from 0 to 300"],
    ["HOST", "not a host!", "HOST must be an IP address or host name"],
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
});
