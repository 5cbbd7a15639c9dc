import { createCookie } from "react-router";

/** A one-time note for the page a redirect lands on: "Signed out.", or an invitation link to copy. */
export type Flash = { text: string; link?: string };

/** Signed, so that no one else can put words on our pages. */
function flashCookie(secret: string) {
  return createCookie("cairn_flash", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60, secrets: [secret] });
}

export async function flashHeader(secret: string, flash: Flash): Promise<string> {
  return flashCookie(secret).serialize(flash);
}

function isFlash(value: unknown): value is Flash {
  const flash = value as Flash | null;
  return typeof flash?.text === "string" && (flash.link === undefined || typeof flash.link === "string");
}

/** The pending note, if any, and the header that clears it once shown. */
export async function takeFlash(secret: string, request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const cookie = flashCookie(secret);
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (!isFlash(value)) return { flash: null, clear: null };
  return { flash: value, clear: await cookie.serialize("", { maxAge: 0 }) };
}
