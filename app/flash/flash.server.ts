import { createCookie } from "react-router";

/** A one-time message shown on the page a redirect lands on ("Signed out.", …); signed, so no one else can set it. */
function flashCookie(secret: string) {
  return createCookie("cairn_flash", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60, secrets: [secret] });
}

export async function flashHeader(secret: string, message: string): Promise<string> {
  return flashCookie(secret).serialize(message);
}

/** The pending message, if any, and the header that clears it once shown. */
export async function takeFlash(secret: string, request: Request): Promise<{ message: string | null; clear: string | null }> {
  const cookie = flashCookie(secret);
  const message: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (typeof message !== "string" || !message) return { message: null, clear: null };
  return { message, clear: await cookie.serialize("", { maxAge: 0 }) };
}
