const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

/** A page for the few answers the host gives before React Router can render (starting, malformed, too large, crashed). */
export function plainPage(title: string, message: string, digest?: string): string {
  const digestLine = digest ? `<p>Digest: <code>${escapeHtml(digest)}</code></p>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Cairn</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${digestLine}</main></body></html>`;
}

export const badRequestPage = plainPage("Bad request", "That request was not valid.");
