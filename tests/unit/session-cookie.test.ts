/**
 * Reading the session cookie (app/auth/session-cookie.server.ts): a verified header is remembered,
 * but only for the secret that verified it, and a tampered or foreign cookie never yields a token.
 */
import { describe, expect, it } from "vitest";
import { readSessionToken, sessionCookie } from "~/auth/session-cookie.server";

const services = (sessionSecret: string) => ({ config: { production: false } as never, sessionSecret });
const request = (cookie?: string) => new Request("http://127.0.0.1/w/demo", cookie ? { headers: { Cookie: cookie } } : {});

async function signedHeader(secret: string, token: string, others = "theme=dark") {
  const setCookie = await sessionCookie(services(secret), request()).serialize(token);
  return `${others}; ${setCookie.split(";")[0]}`;
}

describe("readSessionToken", () => {
  it("reads the token of a cookie signed with the secret, again and again", async () => {
    const header = await signedHeader("secret-a", "token-1");
    expect(await readSessionToken(services("secret-a"), request(header))).toBe("token-1");
    expect(await readSessionToken(services("secret-a"), request(header))).toBe("token-1");
  });

  it("refuses the same header under another secret, even after it was verified under its own", async () => {
    const header = await signedHeader("secret-a", "token-2");
    expect(await readSessionToken(services("secret-a"), request(header))).toBe("token-2");
    expect(await readSessionToken(services("secret-b"), request(header))).toBeNull();
  });

  it("refuses a cookie whose value or signature was changed", async () => {
    const header = await signedHeader("secret-a", "token-3");
    const [name, signed] = header.split("; ")[1]!.split("=") as [string, string];
    const [value, signature] = decodeURIComponent(signed).split(".") as [string, string];
    const forgedValue = `theme=dark; ${name}=${encodeURIComponent(`${btoa(JSON.stringify("token-4"))}.${signature}`)}`;
    const forgedSignature = `theme=dark; ${name}=${encodeURIComponent(`${value}.${signature.slice(1)}A`)}`;
    expect(await readSessionToken(services("secret-a"), request(forgedValue))).toBeNull();
    expect(await readSessionToken(services("secret-a"), request(forgedSignature))).toBeNull();
  });

  it("reads a long header without remembering it, and no header as no token", async () => {
    const header = await signedHeader("secret-a", "token-5", `padding=${"x".repeat(2_000)}`);
    expect(await readSessionToken(services("secret-a"), request(header))).toBe("token-5");
    expect(await readSessionToken(services("secret-a"), request())).toBeNull();
  });
});
