import { randomBytes, scryptSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  hashPassword,
  isCommonPassword,
  PasswordHashingBusyError,
  passwordProblem,
  passwordRules,
  verifyPassword,
} from "~/auth/password.server";
import commonPasswordList from "~/auth/common-passwords.txt?raw";

const email = "ada@example.com";
const good = "correct horse battery staple";

describe("the common password list", () => {
  const entries = commonPasswordList.split("\n");

  it("has 1,000 unique lower-case passwords, one a line", () => {
    expect(entries.pop()).toBe(""); // the file ends with a newline
    expect(entries).toHaveLength(1000);
    expect(new Set(entries).size).toBe(1000);
    for (const entry of entries) {
      expect(entry).toMatch(/^\S+$/);
      expect(entry).toBe(entry.toLowerCase());
    }
  });

  it("starts with the most common", () => {
    expect(entries.slice(0, 2)).toEqual(["123456", "password"]);
  });

  it("is matched case-insensitively", () => {
    expect(isCommonPassword("password")).toBe(true);
    expect(isCommonPassword("123456")).toBe(true);
    expect(isCommonPassword("PassWord")).toBe(true);
    expect(isCommonPassword(good)).toBe(false);
  });
});

describe("passwordProblem", () => {
  it("asks for 10 to 128 characters", () => {
    expect(passwordRules).toEqual({ minLength: 10, maxLength: 128 });
    expect(passwordProblem("k".repeat(9), email)).toBe("Use at least 10 characters.");
    expect(passwordProblem("k".repeat(10), email)).toBeUndefined();
    expect(passwordProblem("k".repeat(128), email)).toBeUndefined();
    expect(passwordProblem("k".repeat(129), email)).toBe("Use at most 128 characters.");
  });

  it("counts characters, not UTF-16 units", () => {
    expect(passwordProblem("🔑".repeat(10), email)).toBeUndefined();
    expect(passwordProblem("🔑".repeat(9), email)).toBe("Use at least 10 characters.");
  });

  it("refuses a common password whatever its case", () => {
    // "1234567890" and "qwertyuiop" are in the list and long enough to reach this rule.
    expect(passwordProblem("1234567890", email)).toBe("This password is too common: choose another.");
    expect(passwordProblem("QwertyUIOP", email)).toBe("This password is too common: choose another.");
  });

  it("refuses the email address, ignoring case and surrounding spaces", () => {
    const message = "Your password must not be your email address.";
    expect(passwordProblem(email, email)).toBe(message);
    expect(passwordProblem(" ADA@Example.com ", email)).toBe(message);
    expect(passwordProblem("ada@example.com", "  Ada@Example.COM ")).toBe(message);
  });

  it("accepts a good password", () => {
    expect(passwordProblem(good, email)).toBeUndefined();
  });
});

describe("password hashing", () => {
  let stored: string;

  beforeAll(async () => {
    stored = await hashPassword(good);
  });

  it("stores the algorithm, OWASP's parameters (the 32 MiB setting), the salt and the hash", () => {
    const [scheme, N, r, p, salt, hash, ...rest] = stored.split("$");
    expect(scheme).toBe("scrypt");
    expect(Number(N)).toBe(2 ** 15);
    expect(Number(r)).toBe(8);
    expect(Number(p)).toBe(3);
    expect(Buffer.from(salt ?? "", "base64url")).toHaveLength(16);
    expect(Buffer.from(hash ?? "", "base64url")).toHaveLength(32);
    expect(rest).toEqual([]);
    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
  });

  it("salts every hash", async () => {
    expect(await hashPassword(good)).not.toBe(stored);
  });

  it("accepts the right password and refuses a wrong one", async () => {
    expect(await verifyPassword(good, stored)).toBe(true);
    expect(await verifyPassword("Correct horse battery staple", stored)).toBe(false);
  });

  it("uses the parameters in the stored hash", async () => {
    const salt = randomBytes(16);
    const key = scryptSync("cheap to check", salt, 32, { N: 1024, r: 8, p: 1 });
    const cheap = `scrypt$1024$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword("cheap to check", cheap)).toBe(true);
    expect(await verifyPassword("something else", cheap)).toBe(false);
  });

  it("still verifies a hash made before with N=2^17, r=8, p=1 (128 MiB)", async () => {
    const salt = randomBytes(16);
    const key = scryptSync("made before", salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
    const before = `scrypt$131072$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword("made before", before)).toBe(true);
    expect(await verifyPassword("made after", before)).toBe(false);
  });

  it("refuses when there is no account", async () => {
    expect(await verifyPassword(good, null)).toBe(false);
  });

  it("refuses, without throwing, a malformed stored hash", async () => {
    const [, , , , salt, hash] = stored.split("$");
    const malformed = [
      "",
      "not a hash",
      `bcrypt$131072$8$1$${salt}$${hash}`,
      `scrypt$131072$8$1$${salt}`,
      `scrypt$131072$8$1$${salt}$${hash}$extra`,
      `scrypt$131071$8$1$${salt}$${hash}`, // N must be a power of two
      `scrypt$0x20000$8$1$${salt}$${hash}`,
      `scrypt$1048576$8$1$${salt}$${hash}`, // over the memory cap
      `scrypt$131072$8$1$${salt}$`,
      `scrypt$131072$8$1$${salt}$A`, // decodes to an empty hash
      `scrypt$131072$8$1$${salt}$${hash}!`,
    ];
    for (const value of malformed) {
      expect(await verifyPassword(good, value), value).toBe(false);
    }
  });
});

describe("the hashing gate", () => {
  it("takes two scrypts at a time and 16 waiting, and refuses more (verifications too) with a Retry-After", { timeout: 60_000 }, async () => {
    const stored = await hashPassword(good);
    // 20 hashes and verifications asked for at once: 2 run, 16 wait, the last two are refused.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? hashPassword(`${good} ${i}`) : verifyPassword(good, stored)).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
      ),
    );
    const refused = results.flatMap((result) => ("error" in result ? [result.error] : []));
    expect(refused).toHaveLength(2);
    for (const error of refused) {
      expect(error).toBeInstanceOf(PasswordHashingBusyError);
      expect((error as PasswordHashingBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
    expect(results.filter((result) => "value" in result && result.value === true)).toHaveLength(9);
    // Once the queue has drained, hashing is accepted again.
    expect(await verifyPassword(good, stored)).toBe(true);
  });
});
