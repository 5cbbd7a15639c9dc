/**
 * The search page over HTTP, as a browser without JavaScript sees it, on every database (issue 30):
 * a snippet is the text as it reads — no Markdown syntax, no HTML from the text, the matching words
 * (as typed or a typo away) in <mark> — and hostile queries answer 200, or 400 with the reason at the
 * field, never an error.
 *
 *   acme: Ada (owner); project WEB with WEB-1 (a Markdown description) and WEB-2.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

/** The results region of a search page, without its scripts (their hydration data repeats the text). */
const resultsOf = (page: string) => /<section aria-labelledby="results-title"[\s\S]*?<\/section>/.exec(page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ""))?.[0] ?? "";
/** Markup as text: tags dropped, React's comment separators too, entities read. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&");
const snippetsOf = (page: string) => [...resultsOf(page).matchAll(/<p class="row-snippet">([\s\S]*?)<\/p>/g)].map((match) => match[1]!);
const marksOf = (html: string) => [...html.matchAll(/<mark\b[^>]*>([\s\S]*?)<\/mark>/g)].map((match) => textOf(match[1]!));

const description = [
  "## Steps",
  "",
  "1. Open **/checkout**",
  "2. Scroll to the [page's end](https://example.com/footer-spec \"Spec\")",
  "",
  "```css",
  ".footer { color: red }",
  "```",
  "",
  '<img src="x" onerror="alert(1)"> The <b>footer</b> & the *header* overlap. ![a screenshot](https://example.com/shot.png)',
].join("\n");

describe.each(testDialects)("the search page over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let ada: BrowserlessClient;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    ada = await signUpOverHttp(server.url, "Ada", "ada@example.com");
    expect((await ada.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    expect((await ada.post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
    for (const [title, text] of [
      ["Checkout layout", description],
      ["Footer links", "Nothing else."],
    ]) {
      const filed = await ada.post("/w/acme/p/WEB/issues/new", { title: title!, description: text!, status: "todo", priority: "none", assigneeId: "", dueDate: "" });
      expect(filed.status).toBe(302);
    }
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("shows a snippet as its text reads, the words found marked, whatever the text holds", async () => {
    const response = await ada.get("/w/acme/search?q=footr");
    expect(response.status).toBe(200);
    const page = await response.text();
    const results = resultsOf(page);
    expect(textOf(results)).toContain("2 results");
    // The title with the word typed right first ("footr" is a typo of "footer"), then the description.
    expect([...results.matchAll(/<a [^>]*href="\/w\/acme\/p\/WEB\/issues\/(\d+)"/g)].map((match) => match[1])).toEqual(["2", "1"]);
    const [, snippet] = snippetsOf(page);
    expect(textOf(snippet!)).toBe("Steps Open /checkout Scroll to the page's end .footer { color: red } The footer & the header overlap. a screenshot");
    expect(marksOf(snippet!)).toEqual(["footer", "footer"]);
    // Only <mark> is markup in it: the text's own HTML is neither kept nor shown.
    expect(snippet!.replace(/<mark\b[^>]*>|<\/mark>|<!-- -->/g, "")).not.toMatch(/[<>]/);
    expect(results).not.toMatch(/<(img|b)\b|onerror|example\.com|\*\*|```|##/);
  });

  it("answers hostile queries with results or a 400 that says why, never an error", async () => {
    const queries: [string, number][] = [
      [`"footer`, 200],
      [`footer" OR "x`, 200],
      ["footer*", 200],
      ["*", 200],
      ["NOT footer", 200],
      ["NEAR(footer links)", 200],
      ["footer & | ! <-> ':*", 200],
      ["title:footer", 200],
      [`'); drop table issues; --`, 200],
      ["!!! ??? ...", 200],
      ["f", 200],
      ["x".repeat(10_000), 200],
      ["footr ".repeat(2_000), 200],
      ["🐛".repeat(1_000), 200],
      // Cut at 200 characters in the middle of an emoji.
      [`a${"🐛".repeat(1_000)}`, 200],
      ["foo\u0000ter", 400],
      ["foo\u202eter", 400],
    ];
    for (const [q, status] of queries) {
      const response = await ada.get(`/w/acme/search?q=${encodeURIComponent(q)}`);
      expect(response.status, q.slice(0, 30)).toBe(status);
      const page = await response.text();
      if (status === 400) expect(page).toMatch(/<span id="search-error"[^>]*>Remove the invisible/);
      else expect(textOf(resultsOf(page)), q.slice(0, 30)).toMatch(/\d+ results?/);
    }
    // Nothing was dropped: the words of a hostile query still find.
    expect(textOf(resultsOf(await (await ada.get(`/w/acme/search?q=${encodeURIComponent(`'); footer --`)}`)).text()))).toContain("2 results");
  });
});
