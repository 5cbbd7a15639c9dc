import type { Request, Response } from "express";

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

/** A page for the few answers the host gives before React Router can render (starting, malformed, too large, crashed). */
export function plainPage(title: string, message: string, digest?: string): string {
  const digestLine = digest ? `<p>Digest: <code>${escapeHtml(digest)}</code></p>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Cairn</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${digestLine}</main></body></html>`;
}

export const badRequestPage = plainPage("Bad request", "That request was not valid.");

/**
 * Sends one of the host's refusals (starting, too large, cross-site …): the page to a browser's
 * request, and the message alone, as text, to React Router's data requests (`.data`, with
 * JavaScript), whose route error boundary shows it as it shows a route's own refusal (a page would
 * show as its source).
 */
export function sendRefusal(req: Request, res: Response, refusal: { status: number; title: string; message: string }) {
  res.status(refusal.status);
  if (req.path.endsWith(".data")) res.type("text/plain").send(refusal.message);
  else res.type("html").send(plainPage(refusal.title, refusal.message));
}
