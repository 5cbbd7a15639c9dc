import { describe, expect, it } from "vitest";
import { errorDigest } from "~/errors/digest.server";

describe("errorDigest", () => {
  it("is eight upper-case hex digits", () => {
    expect(errorDigest(new Error("boom"), "routes/index")).toMatch(/^[0-9A-F]{8}$/);
  });

  it("is the same for the same fault, so repeats group together", () => {
    const first = errorDigest(new TypeError("x is undefined"), "routes/index");
    const again = errorDigest(new TypeError("x is undefined"), "routes/index");
    expect(again).toBe(first);
  });

  it("differs by message, by kind of error and by where it was thrown", () => {
    const base = errorDigest(new Error("boom"), "routes/index");
    expect(errorDigest(new Error("bang"), "routes/index")).not.toBe(base);
    expect(errorDigest(new TypeError("boom"), "routes/index")).not.toBe(base);
    expect(errorDigest(new Error("boom"), "routes/readyz")).not.toBe(base);
  });

  it("accepts values that are not errors", () => {
    expect(errorDigest("a string", "host")).toMatch(/^[0-9A-F]{8}$/);
    expect(errorDigest(undefined, "host")).not.toBe(errorDigest(null, "host"));
  });
});
