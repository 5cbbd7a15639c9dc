import MarkdownIt, { type Token } from "markdown-it";
import { taskMarker } from "~/issues/markdown.server";

// HTML is read as HTML here (the page shows it as text) so that its tags can be left out. Escaped
// characters stay tokens of their own (no text_join), so that an escaped `\[ ]` is no task, as on the page.
const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
md.core.ruler.disable("text_join");

const htmlTag = /<!--[\s\S]*?-->|<[^>]*>/g;

/** The words of inline Markdown: text, code and the text of links and images' alt text, no syntax or URLs. */
function inlineText(tokens: readonly Token[]): string {
  let text = "";
  for (const token of tokens) {
    if (token.type === "text" || token.type === "text_special" || token.type === "code_inline") text += token.content;
    else if (token.type === "softbreak" || token.type === "hardbreak") text += "\n";
    else if (token.type === "image") text += inlineText(token.children ?? []);
  }
  return text;
}

/**
 * Markdown as it reads: the words of its headings, paragraphs, list items, table cells, quotes and
 * code, one block a line, without the syntax around them (`#`, `**`, list and task markers, fences,
 * link URLs, images but their alt text, HTML tags). For search snippets (app/search/search.server.ts).
 */
export function markdownText(source: string): string {
  const tokens = md.parse(source, {});
  const blocks: string[] = [];
  for (const [index, token] of tokens.entries()) {
    if (token.type === "inline") {
      const children = token.children ?? [];
      const text = inlineText(children);
      // A task's `[ ]` is a checkbox, not words: where app/issues/markdown.server.ts sees one.
      const isTask = tokens[index - 2]?.type === "list_item_open" && tokens[index - 1]?.type === "paragraph_open" && children[0]?.type === "text" && taskMarker.test(children[0].content);
      blocks.push(isTask ? text.replace(taskMarker, "") : text);
    } else if (token.type === "fence" || token.type === "code_block") {
      blocks.push(token.content);
    } else if (token.type === "html_block") {
      blocks.push(md.utils.unescapeAll(token.content.replace(htmlTag, " ")));
    }
  }
  return blocks.join("\n");
}
