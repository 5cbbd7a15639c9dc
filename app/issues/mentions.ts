/**
 * `@handle` in Markdown text (a description, a comment): the handle rule of app/auth/handles.server.ts,
 * as a whole word — not the middle of `ada@example.com`, not followed by more handle characters.
 */
export const mentionPattern = /(?<![\p{L}\p{N}_.@/-])@([a-z0-9]+(?:-[a-z0-9]+)*)(?![\p{L}\p{N}_-])/giu;

const handleLength = { min: 3, max: 39 };

// Code is no mention nor reference: fenced blocks and inline code spans.
const codeBlocks = /(^|\n)(`{3,}|~{3,})[^\n]*\n[\s\S]*?(\n\2[^\n]*(?=\n|$)|$)/g;
const codeSpans = /(`+)[^`][\s\S]*?\1/g;

/** The text with its code (fenced blocks, inline spans) blanked out: what is in code mentions nothing. */
export const withoutCode = (text: string) => text.replace(codeBlocks, "\n").replace(codeSpans, " ");

/** The handles a text mentions, lower-cased, each once, in the order they first appear. */
export function mentionedHandles(text: string): string[] {
  const prose = withoutCode(text);
  const handles = new Set<string>();
  for (const match of prose.matchAll(mentionPattern)) {
    const handle = match[1]!.toLowerCase();
    if (handle.length >= handleLength.min && handle.length <= handleLength.max) handles.add(handle);
  }
  return [...handles];
}

/** Handles mentioned in `after` and not in `before`: an edit notifies only whom it adds. */
export function newlyMentioned(before: string, after: string): string[] {
  const already = new Set(mentionedHandles(before));
  return mentionedHandles(after).filter((handle) => !already.has(handle));
}
