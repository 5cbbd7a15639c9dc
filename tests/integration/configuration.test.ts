import { describe, expect, it } from "vitest";
import { spawnServer } from "../support/server";

describe("start-up with a bad configuration value", () => {
  it.each([
    ["PORT", "not-a-port", "PORT must be a whole number from 1 to 65535"],
    ["DATABASE_URL", "mysql://localhost/cairn", "DATABASE_URL must be a postgres:// or postgresql:// URL"],
    ["LOG_LEVEL", "chatty", "LOG_LEVEL must be one of"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318", "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL"],
  ])("%s=%s stops with one clear line and no stack trace", async (variable, value, expected) => {
    const { exited, stderr, logs } = spawnServer({ [variable]: value, DATA_DIR: "/tmp/cairn-never-used" });
    expect(await exited).toBe(1);
    const lines = stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Invalid configuration: ${expected}`);
    expect(lines[0]).toContain(JSON.stringify(value));
    expect(stderr()).not.toMatch(/\bat .*:\d+/);
    expect(logs).toEqual([]);
  });
});
