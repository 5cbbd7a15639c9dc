import { describe, expect, it } from "vitest";
import { renderMarkdown } from "~/issues/markdown.server";

/** Every tag the browser would build from the HTML: its name and its attribute text. */
function tags(html: string): { name: string; attributes: string }[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/gi)].map((m) => ({ name: m[1]!.toLowerCase(), attributes: m[2]! }));
}

/** The href of every link, as a browser would read its scheme (entities and escapes decoded, whitespace dropped). */
function hrefs(html: string): string[] {
  return [...html.matchAll(/\shref="([^"]*)"/g)].map((m) =>
    m[1]!
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
      .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)))
      .replace(/&amp;/g, "&")
      .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/[\u0000-\u0020]/g, ""),
  );
}

function expectNothingLive(html: string) {
  for (const tag of tags(html)) {
    expect(["script", "img", "iframe", "object", "embed", "style"]).not.toContain(tag.name);
    expect(tag.attributes).not.toMatch(/\son[a-z]+\s*=/i);
  }
}

describe("renderMarkdown", () => {
  it("renders headings, emphasis and lists", () => {
    const html = renderMarkdown("# Release plan\n\n## Steps\n\nThis is *important* and **urgent**.\n\n- one\n- two\n\n1. first\n2. second");
    expect(html).toContain("<h1>Release plan</h1>");
    expect(html).toContain("<h2>Steps</h2>");
    expect(html).toContain("<em>important</em>");
    expect(html).toContain("<strong>urgent</strong>");
    expect(html).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<ol>\s*<li>first<\/li>\s*<li>second<\/li>\s*<\/ol>/);
  });

  it("renders code blocks and inline code with their content escaped", () => {
    const html = renderMarkdown("Run `a < b && c`:\n\n```html\n<script>alert(1)</script>\n```\n\n    <b>indented</b>");
    expect(html).toContain("<code>a &lt; b &amp;&amp; c</code>");
    expect(html).toContain('<pre><code class="language-html">&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>');
    expect(html).toContain("<pre><code>&lt;b&gt;indented&lt;/b&gt;\n</code></pre>");
    expectNothingLive(html);
  });

  it("renders tables, aligning columns with classes rather than inline styles (our CSP blocks those)", () => {
    const html = renderMarkdown("| Browser | Works | Share |\n|---|:-:|--:|\n| Firefox | yes | 3% |\n| Safari | no | 18% |");
    expect(html).toMatch(/<table>[\s\S]*<th>Browser<\/th>[\s\S]*<td>Firefox<\/td>[\s\S]*<\/table>/);
    expect(html).toContain('<th class="text-center">Works</th>');
    expect(html).toContain('<td class="text-right">18%</td>');
    expect(html).not.toContain("style=");
  });

  it("escapes raw HTML instead of passing it through", () => {
    const script = renderMarkdown("<script>alert(1)</script>");
    expect(script).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(script).not.toContain("<script");
    expectNothingLive(script);

    const image = renderMarkdown("<img src=x onerror=alert(1)>");
    expect(image).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(image).not.toContain("<img");
    expectNothingLive(image);

    const inline = renderMarkdown('Hello <a href="javascript:alert(1)" onclick="alert(2)">there</a>');
    expect(inline).not.toContain("<a ");
    expectNothingLive(inline);
  });

  it.each([
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java\tscript:alert(1))",
    "[x](<java\tscript:alert(1)>)",
    "[x](&#106;avascript:alert(1))",
    "[x](data:text/html;base64,xxx)",
    "[x](vbscript:msgbox)",
    "[x](file:///etc/passwd)",
    "<javascript:alert(1)>",
    "[x][ref]\n\n[ref]: javascript:alert(1)",
    "![x](javascript:alert(1))",
  ])("turns %j into no link with a dangerous scheme", (source) => {
    const html = renderMarkdown(source);
    for (const href of hrefs(html)) expect(href).not.toMatch(/^(javascript|vbscript|data|file):/i);
    expect(html).not.toMatch(/<a\s/);
    expectNothingLive(html);
  });

  it("keeps http, https, mailto, relative and anchor links, each with rel", () => {
    const html = renderMarkdown("[a](http://example.com) [b](https://example.com/x?y=1) [c](mailto:ada@example.com) [d](/w/acme/p/WEB/issues/2) [e](#steps)");
    expect(hrefs(html)).toEqual(["http://example.com", "https://example.com/x?y=1", "mailto:ada@example.com", "/w/acme/p/WEB/issues/2", "#steps"]);
    expect(html.match(/<a /g)).toHaveLength(5);
    expect(html.match(/ rel="noopener noreferrer nofollow"/g)).toHaveLength(5);
  });

  it("autolinks bare URLs with rel", () => {
    const html = renderMarkdown("See https://example.com for details.");
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow">https://example.com</a>');
  });

  it("renders an image as a link to it, not as an <img>", () => {
    const html = renderMarkdown("![the screenshot](https://tracker.example/p.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain('<a href="https://tracker.example/p.png" rel="noopener noreferrer nofollow">the screenshot</a>');

    const untitled = renderMarkdown("![](https://tracker.example/p.png)");
    expect(untitled).not.toContain("<img");
    expect(untitled).toContain('<a href="https://tracker.example/p.png" rel="noopener noreferrer nofollow">https://tracker.example/p.png</a>');
  });

  it("escapes an image's alt text", () => {
    const html = renderMarkdown('![<b onmouseover="x">](https://tracker.example/p.png)');
    expect(html).not.toContain("<b");
    expectNothingLive(html);
  });
});
