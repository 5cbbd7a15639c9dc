import { describe, expect, it } from "vitest";
import { renderMarkdown as renderWith } from "~/issues/markdown.server";

/** A workspace `acme` whose projects WEB and API have these issues (WEB-42 closed). */
const existing = (keys: string[], closed: string[] = []) => new Map(keys.map((key) => [key, { title: `Title of ${key}`, closed: closed.includes(key) }]));
const acme = { workspaceSlug: "acme", issues: existing(["WEB-1", "WEB-2", "WEB-3", "WEB-8", "WEB-10", "WEB-42", "API-7"], ["WEB-42"]) };
const renderMarkdown = (source: string) => renderWith(source, acme);

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

  it("shows the workspace's own image attachments inline, at their size, and nothing else", () => {
    const withImages = (source: string) => renderWith(source, { ...acme, attachments: new Map([[12, { width: 800, height: 450 }], [13, { tooLargeToPreview: true, size: 300 * 1024 }]]) });
    expect(withImages('![login "blank"](/w/acme/attachments/12/login.png "After sign-in")')).toBe(
      '<p><a href="/w/acme/attachments/12/login.png" class="attachment-image"><img src="/w/acme/attachments/12/login.png" alt="login &quot;blank&quot;" loading="lazy" decoding="async" width="800" height="450" title="After sign-in"></a></p>\n',
    );
    // Too large to preview (or its size unknown): a link that says so, with no dimensions.
    expect(withImages("![x](/w/acme/attachments/13/x.png)")).toBe(
      '<p><a href="/w/acme/attachments/13/x.png" rel="noopener noreferrer nofollow">x</a><span class="muted"> (image too large to preview, 300 KiB)</span></p>\n',
    );
    // Not one of its images: an unknown id, another workspace's address, another host, a query string.
    for (const src of ["/w/acme/attachments/14/y.png", "/w/globex/attachments/12/login.png", "https://evil.example/w/acme/attachments/12/login.png", "/w/acme/attachments/12/login.png?x=1"]) {
      const html = withImages(`![shot](${src})`);
      expect(html).not.toContain("<img");
      expect(html).toContain("rel=\"noopener noreferrer nofollow\">shot</a>");
    }
    // Without the workspace's images (a text rendered elsewhere), every image is a link.
    expect(renderMarkdown("![login](/w/acme/attachments/12/login.png)")).not.toContain("<img");
  });

  it("renders task list items as disabled checkboxes, each named by its item's text", () => {
    const html = renderMarkdown("- [ ] write the plan\n- [x] ship **it**\n  - [X] nested\n- plain item\n\n1. [ ] numbered");
    expect(html).toContain(
      '<li class="task-list-item"><label><input type="checkbox" class="task-list-item-checkbox" disabled> write the plan</label></li>',
    );
    expect(html).toContain(
      '<li class="task-list-item"><label><input type="checkbox" class="task-list-item-checkbox" disabled checked> ship <strong>it</strong></label>',
    );
    expect(html).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled checked> nested</label>');
    expect(html).toContain("<li>plain item</li>");
    expect(html).toContain('<ol class="contains-task-list">');
    expect(html.match(/<ul class="contains-task-list">/g)).toHaveLength(2);
    // No checkbox is ever live, and none goes unnamed.
    for (const tag of tags(html).filter((t) => t.name === "input")) expect(tag.attributes).toMatch(/\sdisabled/);
  });

  it.each([
    ["a marker outside a list", "[ ] not a task"],
    ["an escaped marker", "- \\[ ] not a task"],
    ["a marker with no text", "- [ ]"],
    ["a marker in the middle", "- do [x] this"],
    ["a marker in code", "- `[ ] code`"],
    ["another letter", "- [y] maybe"],
  ])("renders no checkbox for %s", (_, source) => {
    expect(renderMarkdown(source)).not.toContain("<input");
  });

  it("keeps fenced code a monospace block, its language a class", () => {
    const html = renderMarkdown("```ts\nconst a = 1;\n```");
    expect(html).toBe('<pre><code class="language-ts">const a = 1;\n</code></pre>\n');
  });

  it("links references to issues of the workspace, titled, a closed one marked", () => {
    const html = renderMarkdown("Blocked by WEB-42 and API-7; see (WEB-1), **WEB-8**.\n\n# WEB-10");
    expect(hrefs(html)).toEqual(["/w/acme/p/WEB/issues/42", "/w/acme/p/API/issues/7", "/w/acme/p/WEB/issues/1", "/w/acme/p/WEB/issues/8", "/w/acme/p/WEB/issues/10"]);
    expect(html).toContain('<a href="/w/acme/p/WEB/issues/42" title="Title of WEB-42" class="issue-ref closed" rel="noopener noreferrer nofollow">WEB-42</a> and');
    expect(html).toContain('<strong><a href="/w/acme/p/WEB/issues/8" title="Title of WEB-8" class="issue-ref" rel="noopener noreferrer nofollow">WEB-8</a></strong>');
  });

  it.each([
    ["an unknown project key", "FOO-1"],
    ["an issue the project does not have (or the reader cannot see)", "WEB-99"],
    ["a lower-case key", "web-1"],
    ["issue number 0", "WEB-0"],
    ["a number with a leading zero", "WEB-042"],
    ["a number past the largest issue number", "WEB-2147483648"],
    ["a key inside a word", "xWEB-1"],
    ["a number inside a word", "WEB-1x"],
    ["a longer hyphenated word", "WEB-1-2"],
    ["inline code", "`WEB-1`"],
    ["a code block", "```\nWEB-1\n```"],
    ["an indented code block", "    WEB-1"],
  ])("does not link %s", (_, source) => {
    expect(renderMarkdown(source)).not.toContain("<a ");
  });

  it("leaves references inside links as they are", () => {
    const html = renderMarkdown("[WEB-1 fix](https://example.com/x) https://example.com/WEB-2 <https://example.com/WEB-3>");
    expect(hrefs(html)).toEqual(["https://example.com/x", "https://example.com/WEB-2", "https://example.com/WEB-3"]);
    expect(html.match(/<a /g)).toHaveLength(3);
  });

  it("links to the workspace it is given, and nothing when the text references no issue it has", () => {
    expect(hrefs(renderWith("WEB-5", { workspaceSlug: "beta-team", issues: existing(["WEB-5"]) }))).toEqual(["/w/beta-team/p/WEB/issues/5"]);
    expect(renderWith("WEB-5", { workspaceSlug: "beta-team", issues: new Map() })).toBe("<p>WEB-5</p>\n");
  });
});

describe("@mentions", () => {
  const people = new Map([
    ["ada", { id: 7, name: "Ada <Lovelace>" }],
    ["grace-h", { id: 9, name: "Grace" }],
  ]);
  const render = (source: string) => renderWith(source, { ...acme, people, mentionHref: (person) => `/w/acme/p/WEB/issues?assignee=${person.id}` });

  it("links a member's handle, whatever its case, with their name as its title", () => {
    expect(render("Ask @Ada and @grace-h.")).toBe(
      '<p>Ask <a href="/w/acme/p/WEB/issues?assignee=7" title="Ada &lt;Lovelace&gt;" class="mention" rel="noopener noreferrer nofollow">@Ada</a> and ' +
        '<a href="/w/acme/p/WEB/issues?assignee=9" title="Grace" class="mention" rel="noopener noreferrer nofollow">@grace-h</a>.</p>\n',
    );
  });

  it("leaves unknown handles, emails, code and links alone, and WEB-1 beside a mention still links", () => {
    expect(render("@nobody ada@example.com `@ada`")).not.toContain('class="mention"');
    expect(render("[@ada](https://example.com)")).not.toContain('class="mention"');
    expect(hrefs(render("@ada WEB-1"))).toEqual(["/w/acme/p/WEB/issues?assignee=7", "/w/acme/p/WEB/issues/1"]);
  });
});
