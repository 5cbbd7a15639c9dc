import MarkdownIt from "markdown-it";
import { attachmentIdOf, formatBytes, type ImageInText } from "~/attachments/attachments";
import { mentionPattern } from "./mentions";
import { issuePath, issueReferencePattern, referenceOf } from "./references";

const linkRel = "noopener noreferrer nofollow";
const allowedSchemes = new Set(["http", "https", "mailto"]);

/**
 * The scheme a browser would see in a URL, lower-cased; undefined for a relative or anchor URL.
 * markdown-it hands over URLs with entities decoded and characters percent-encoded, so this
 * decodes escapes and drops whitespace and control characters first: `java%09script:` must not
 * slip past as a harmless-looking path.
 */
function schemeOf(url: string): string | undefined {
  const plain = url
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/[\u0000-\u0020\u007f-\u009f]/g, "")
    .toLowerCase();
  return /^([a-z][a-z0-9+.-]*):/.exec(plain)?.[1];
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

// An allow-list rather than markdown-it's deny-list: a URL it refuses is left as plain text.
md.validateLink = (url) => {
  const scheme = schemeOf(url);
  return scheme === undefined || allowedSchemes.has(scheme);
};

// Our CSP allows no inline styles, so a table column's alignment becomes a class.
const alignments: Record<string, string> = {
  "text-align:left": "text-left",
  "text-align:center": "text-center",
  "text-align:right": "text-right",
};
md.renderer.rules.th_open = md.renderer.rules.td_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  const style = token.attrGet("style");
  if (style !== null) {
    token.attrs = token.attrs?.filter(([name]) => name !== "style") ?? null;
    const alignment = alignments[String(style)];
    if (alignment) token.attrJoin("class", alignment);
  }
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet("rel", linkRel);
  return self.renderToken(tokens, idx, options);
};

/**
 * An image of this workspace's attachments shows inline, at its size (so the page keeps its place
 * as it loads), and opens whole on a click; one too large to preview is a link that says so. Any
 * other image becomes a link to it: an <img> would make every reader's browser call the image's host.
 */
md.renderer.rules.image = (tokens, idx, options, renderEnv, self) => {
  const env = (renderEnv ?? {}) as RenderEnv;
  const token = tokens[idx]!;
  const src = String(token.attrGet("src") ?? "");
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const text = md.utils.escapeHtml(alt || src);
  if (!src) return text;
  const title = token.attrGet("title");
  const id = env.workspaceSlug ? attachmentIdOf(src, env.workspaceSlug) : undefined;
  const image = id === undefined ? undefined : env.attachments?.get(id);
  if (image && "width" in image) {
    const attrs: [string, string][] = [["src", src], ["alt", alt], ["loading", "lazy"], ["decoding", "async"], ["width", String(image.width)], ["height", String(image.height)]];
    if (title) attrs.push(["title", String(title)]);
    return `<a${self.renderAttrs({ attrs: [["href", src], ["class", "attachment-image"]] })}><img${self.renderAttrs({ attrs })}></a>`;
  }
  const attrs: [string, string][] = [["href", src], ["rel", linkRel]];
  if (title) attrs.push(["title", String(title)]);
  const link = `<a${self.renderAttrs({ attrs })}>${text}</a>`;
  return image ? `${link}<span class="muted"> (image too large to preview, ${formatBytes(image.size)})</span>` : link;
};

/**
 * `[ ] ` or `[x] ` opening a list item's first paragraph, as on GitHub. A paragraph is trimmed, so
 * a task always has text after its marker to name its checkbox.
 */
export const taskMarker = /^\[([ xX])\][ \t]+/;

// A task list item's marker becomes a disabled checkbox, wrapped with the item's text in a <label>
// so that it is named by it. Run before text_join: an escaped `\[ ]` is no task.
md.core.ruler.after("inline", "task_lists", (state) => {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== "inline" || tokens[i - 1]!.type !== "paragraph_open" || tokens[i - 2]!.type !== "list_item_open") continue;
    const first = inline.children?.[0];
    const marker = first?.type === "text" ? taskMarker.exec(first.content) : null;
    if (!first || !marker) continue;
    first.content = first.content.slice(marker[0].length);
    const checkbox = new state.Token("task_checkbox", "input", 0);
    if (marker[1] !== " ") checkbox.attrSet("checked", "");
    inline.children = [new state.Token("task_label_open", "label", 1), checkbox, ...inline.children!, new state.Token("task_label_close", "label", -1)];
    tokens[i - 2]!.attrJoin("class", "task-list-item");
    const list = tokens.findLast((token, index) => index < i - 2 && token.level === tokens[i - 2]!.level - 1);
    if (list && list.attrGet("class") === null) list.attrSet("class", "contains-task-list");
  }
});
md.renderer.rules.task_checkbox = (tokens, idx) =>
  `<input type="checkbox" class="task-list-item-checkbox" disabled${tokens[idx]!.attrGet("checked") === null ? "" : " checked"}> `;
md.renderer.rules.task_label_open = () => "<label>";
md.renderer.rules.task_label_close = () => "</label>";

/** An issue a text references, as its link shows it (see findReferencedIssues). */
export type ReferencedIssue = { title: string; closed: boolean };

export type MarkdownOptions = {
  /** The workspace whose issues `KEY-42` references link to. */
  workspaceSlug: string;
  /** Its issues the text references, by key (`WEB-42`): only these link — an issue that does not exist stays text. */
  issues: ReadonlyMap<string, ReferencedIssue>;
  /** Its members by handle: only a mention of one of them links, to `mentionHref` of them. */
  people?: ReadonlyMap<string, { id: number; name: string }>;
  mentionHref?: (person: { id: number; name: string }) => string;
  /** Its attachments that are images, by id: only these show as images (but those too large to preview). */
  attachments?: ReadonlyMap<number, ImageInText>;
};

/** What the rules find in markdown-it's `env`: the options of renderMarkdown. */
type RenderEnv = Partial<MarkdownOptions>;

type StateCore = Parameters<Parameters<typeof md.core.ruler.push>[1]>[0];

/**
 * Turns what `pattern` finds in text into links (`link` gives the href and title, or undefined to
 * leave it as text): not inside code (its own token type) nor inside a link, written or linkified.
 */
function linkText(state: StateCore, pattern: RegExp, link: (match: RegExpMatchArray) => { href: string; title?: string; className?: string } | undefined) {
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    let linkDepth = 0;
    block.children = block.children.flatMap((token) => {
      if (token.type === "link_open") linkDepth++;
      if (token.type === "link_close") linkDepth--;
      if (token.type !== "text" || linkDepth > 0) return [token];
      const text = (content: string) => Object.assign(new state.Token("text", "", 0), { content });
      const pieces: (typeof token)[] = [];
      let end = 0;
      for (const match of token.content.matchAll(pattern)) {
        const target = link(match);
        if (!target) continue;
        const open = new state.Token("link_open", "a", 1);
        open.attrSet("href", target.href);
        if (target.title) open.attrSet("title", target.title);
        if (target.className) open.attrSet("class", target.className);
        pieces.push(text(token.content.slice(end, match.index)), open, text(match[0]), new state.Token("link_close", "a", -1));
        end = match.index + match[0].length;
      }
      if (end === 0) return [token];
      pieces.push(text(token.content.slice(end)));
      return pieces.filter((piece) => piece.type !== "text" || piece.content !== "");
    });
  }
}

// After text_join, so that text split by escapes is whole again.
md.core.ruler.after("text_join", "issue_references", (state) => {
  const { workspaceSlug, issues } = state.env as RenderEnv;
  if (!workspaceSlug || !issues?.size) return;
  linkText(state, issueReferencePattern, (match) => {
    const reference = referenceOf(match);
    const issue = reference && issues.get(reference.key);
    if (!issue) return undefined;
    return {
      href: issuePath(workspaceSlug, reference.key),
      title: issue.title,
      className: issue.closed ? "issue-ref closed" : "issue-ref",
    };
  });
});

md.core.ruler.after("issue_references", "mentions", (state) => {
  const { people, mentionHref } = state.env as RenderEnv;
  if (!people?.size || !mentionHref) return;
  linkText(state, mentionPattern, ([, handle = ""]) => {
    const person = people.get(handle.toLowerCase());
    return person && { href: mentionHref(person), title: person.name, className: "mention" };
  });
});

/** Issue descriptions and comments as HTML that is safe to insert into a page (docs/product.md, What is stored). */
export function renderMarkdown(source: string, options: MarkdownOptions): string {
  return md.render(source, { ...options } satisfies RenderEnv);
}
