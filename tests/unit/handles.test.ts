import { describe, expect, it } from "vitest";
import { handleField, handleFromEmail } from "~/auth/handles.server";

describe("handles", () => {
  it.each([
    ["ada@example.com", "ada"],
    ["Ada.Lovelace+cairn@example.com", "ada-lovelace-cairn"],
    ["__grace__@example.com", "grace"],
    ["jo@example.com", "jo-user"],
    ["+++@example.com", "user"],
    ["zoë@example.com", "zoe"],
    [`${"x".repeat(60)}@example.com`, "x".repeat(35)],
  ])("makes %s into %s", (email, handle) => {
    expect(handleFromEmail(email)).toBe(handle);
    expect(handleField.safeParse(handle).success).toBe(true);
  });

  it.each(["ada", "ada-lovelace", "a1b", "x".repeat(39), "@Ada", " ada "])("accepts %s", (handle) => {
    expect(handleField.safeParse(handle).success).toBe(true);
  });

  it("keeps a handle lower-case and without its @", () => {
    expect(handleField.parse(" @Ada-L ")).toBe("ada-l");
  });

  it.each([
    ["ab", "Use at least 3 characters."],
    ["x".repeat(40), "Use at most 39 characters."],
    ["ada--lovelace", "single hyphens"],
    ["-ada", "not at the start or the end"],
    ["ada-", "not at the start or the end"],
    ["ada_l", "Use a–z, 0–9"],
    ["adä", "Use a–z, 0–9"],
  ])("refuses %s", (handle, message) => {
    const result = handleField.safeParse(handle);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
});
