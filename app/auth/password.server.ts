import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { availableParallelism } from "node:os";
import pLimit from "p-limit";
// The 1,000 highest-ranked entries of the `passwords` frequency list in zxcvbn 4.4.2
// (lib/frequency_lists.js; MIT licence, © 2012-2016 Dan Wheeler and Dropbox, Inc.),
// lower-cased and de-duplicated, most common first. A raw import bundles the list into
// the server build, so nothing has to be read from disk at run time.
import commonPasswordList from "./common-passwords.txt?raw";

export const passwordRules = { minLength: 10, maxLength: 128 } as const;

const commonPasswords = new Set(commonPasswordList.split(/\r?\n/).filter((line) => line !== ""));

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}

/** The message for the first rule the password breaks, or undefined when it is acceptable. */
export function passwordProblem(password: string, email: string): string | undefined {
  // Count code points, not UTF-16 units, so an emoji is one character as the user sees it.
  const length = [...password].length;
  if (length < passwordRules.minLength) return `Use at least ${passwordRules.minLength} characters.`;
  if (length > passwordRules.maxLength) return `Use at most ${passwordRules.maxLength} characters.`;
  if (isCommonPassword(password)) return "This password is too common: choose another.";
  const normalizedEmail = email.trim().toLowerCase();
  if (normalizedEmail !== "" && password.trim().toLowerCase() === normalizedEmail) {
    return "Your password must not be your email address.";
  }
  return undefined;
}

// One of OWASP's equivalent scrypt settings (N=2^17 p=1, 2^16 p=2, 2^15 p=3 …): the one that
// needs 32 MiB rather than 128 MiB a hash, for the same work (decision record 007). They are
// written into every stored hash, so a hash made with other parameters still verifies.
const cost = { N: 2 ** 15, r: 8, p: 3 };
const saltBytes = 16;
const keyBytes = 32;
const minKeyBytes = 16;
// scrypt needs about 128·N·r bytes (32 MiB here; 128 MiB for hashes made with N=2^17 before),
// at Node's 32 MiB default. The cap also bounds what a tampered stored hash can make
// verifyPassword allocate.
const maxmem = 256 * 1024 * 1024;

/**
 * Every scrypt of the process (sign-up, sign-in, password changes, the dummy hash) goes through one
 * gate: at most two at once, so that hashing takes at most two of libuv's four threads and 64 MiB
 * (256 MiB for hashes made before with N=2^17),
 * and compression and file reads keep the others; up to `maxWaiting` more wait their turn. Beyond
 * that the server is too busy and says so (503) rather than queue without end.
 */
const hashing = pLimit(Math.min(2, availableParallelism()));
const maxWaiting = 16;
/** How long the last scrypt took, to tell a refused client when the queue will have drained. */
let lastHashMs = 500;

/** Thrown when the gate's queue is full; answered 503 with Retry-After (app/errors/route-errors.server.ts). */
export class PasswordHashingBusyError extends Error {
  override name = "PasswordHashingBusyError";

  constructor(readonly retryAfterSeconds: number) {
    super("Too many passwords are being hashed: try again shortly.");
  }
}

// The async form runs on libuv's thread pool; scryptSync would block every request for ~0.3 s.
// Wrapped by hand because promisify's typing picks the overload without options.
// NFC first: the same password typed on another keyboard or system may arrive composed differently.
function deriveKey(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  if (hashing.pendingCount >= maxWaiting) {
    const queued = hashing.pendingCount + hashing.activeCount;
    throw new PasswordHashingBusyError(Math.max(1, Math.ceil((queued / hashing.concurrency) * lastHashMs / 1000)));
  }
  return hashing(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        const started = performance.now();
        scrypt(password.normalize("NFC"), salt, keyLength, options, (error, key) => {
          lastHashMs = performance.now() - started;
          if (error) reject(error);
          else resolve(key);
        });
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltBytes);
  const key = await deriveKey(password, salt, keyBytes, { ...cost, maxmem });
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

const digits = /^[0-9]{1,10}$/;
const base64url = /^[A-Za-z0-9_-]+$/;

async function matches(password: string, stored: string): Promise<boolean> {
  // Missing fields default to "", which the checks below reject.
  const [scheme, N = "", r = "", p = "", salt = "", hash = "", ...rest] = stored.split("$");
  if (
    scheme !== "scrypt" ||
    rest.length > 0 ||
    ![N, r, p].every((field) => digits.test(field)) ||
    ![salt, hash].every((field) => base64url.test(field))
  ) {
    return false;
  }
  const expected = Buffer.from(hash, "base64url");
  // A truncated hash would match too many passwords (an empty one, every password).
  if (expected.length < minKeyBytes) return false;
  try {
    const actual = await deriveKey(password, Buffer.from(salt, "base64url"), expected.length, {
      N: Number(N),
      r: Number(r),
      p: Number(p),
      maxmem,
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch (error) {
    if (error instanceof PasswordHashingBusyError) throw error;
    // Parameters scrypt rejects (N not a power of two, over maxmem, …) mean a corrupt hash.
    return false;
  }
}

// Checked against when there is no account, so that a login for an unknown email costs
// as much as one for a known email and response time does not reveal which accounts exist.
let dummyHash: Promise<string> | undefined;

function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(keyBytes).toString("base64url")).catch((error: unknown) => {
    // Retry next time rather than fail every unknown-account login (which would itself tell).
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}

/** Whether the password matches the stored hash; false, at the same cost, when there is no account. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) {
    await matches(password, await getDummyHash());
    return false;
  }
  return matches(password, stored);
}
