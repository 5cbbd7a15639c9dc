import MarkdownIt from "markdown-it";

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

// An image becomes a link to it: an <img> would make every reader's browser call the image's host.
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet("src") ?? "");
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const text = md.utils.escapeHtml(alt || src);
  if (!src) return text;
  const title = token.attrGet("title");
  const attrs: [string, string][] = [["href", src], ["rel", linkRel]];
  if (title) attrs.push(["title", String(title)]);
  return `<a${self.renderAttrs({ attrs })}>${text}</a>`;
};

/** Issue descriptions and comments as HTML that is safe to insert into a page (docs/product.md, What is stored). */
export function renderMarkdown(source: string): string {
  return md.render(source);
}
