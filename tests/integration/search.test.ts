/**
 * Full-text search on every database (docs/product.md, Screens /w/:workspace/search, §9 page size): what is found,
 * in which order, that the index follows every change, that a workspace sees only its own issues,
 * that words a typo away are found after the words as typed (issue 30), that snippets read as text
 * (issue 30), and that no input — quotes, operators, SQL, huge strings, any script — is an error.
 */
import { type Kysely, sql } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { beforeEach, describe, expect, it } from "vitest";
import { addComment, deleteComment, editComment } from "~/comments/comments.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { IssueFields } from "~/issues/issue-fields";
import { createIssue, updateIssue } from "~/issues/issues.server";
import { editDistance, trigramSimilarity, typosAllowed } from "~/search/close-words.server";
import { markdownText } from "~/search/markdown-text.server";
import {
  findIssueByKey,
  foldWord,
  highlightRanges,
  makeSnippet,
  parseIssueKey,
  searchIssues,
  searchPageSize,
  searchTerms,
} from "~/search/search.server";
import * as foundation from "../../migrations/0001_foundation";
import * as accounts from "../../migrations/0002_accounts";
import * as projectsIssues from "../../migrations/0003_projects_issues";
import { createTestDatabase, testDialects } from "../support/databases";
import { withMigratedDatabase } from "../support/migrated-database";
import { issueFields } from "../support/issues";
import { emptyWorkspaceTables, type SeededProject, seedTestWorkspace } from "../support/workspaces";

const t0 = new Date("2025-03-01T12:00:00.000Z");

const fields = (title: string, description = ""): IssueFields => issueFields({ title, description, status: "todo" });

/** The words a result's ranges cover. */
const marked = (text: string, ranges: { start: number; end: number }[]) => ranges.map(({ start, end }) => text.slice(start, end));

describe("search terms and highlights (no database)", () => {
  it("keeps only words: letters and digits of any script, at most 10, from the first 200 characters", () => {
    expect(searchTerms(`"login" OR title:crash* AND NOT (x) ^y -z NEAR(a b)`)).toEqual(["login", "OR", "title", "crash", "AND", "NOT", "x", "y", "z", "NEAR"]);
    expect(searchTerms(`'); drop table issues; --`)).toEqual(["drop", "table", "issues"]);
    expect(searchTerms(`"'*^:()-\\%_ 🐛🔥`)).toEqual([]);
    expect(searchTerms("Ошибка 中文 مرحبا café")).toEqual(["Ошибка", "中文", "مرحبا", "café"]);
    expect(searchTerms("Login login LOGIN lógin")).toEqual(["Login"]);
    expect(searchTerms("a".repeat(10_000))).toEqual(["a".repeat(200)]);
    expect(searchTerms("one two three four five six seven eight nine ten eleven")).toHaveLength(10);
  });

  it("folds case and Latin accents, not other scripts' letters", () => {
    expect(foldWord("CAFÉ")).toBe("cafe");
    expect(foldWord("Ærøskøbing")).toBe("ærøskøbing");
    expect(foldWord("Ự")).toBe("u");
    expect(foldWord("ЙОД")).toBe("йод");
  });

  it("marks every word that starts with a term, whatever its case or accents", () => {
    const title = "Login: the LOGIN page logs Lógin attempts";
    expect(highlightRanges(title, ["login"])).toEqual([
      { start: 0, end: 5 },
      { start: 11, end: 16 },
      { start: 27, end: 32 },
    ]);
    expect(marked(title, highlightRanges(title, ["log"]))).toEqual(["Login", "LOGIN", "logs", "Lógin"]);
    expect(marked("Ошибка входа", highlightRanges("Ошибка входа", ["вход"]))).toEqual(["входа"]);
    expect(highlightRanges("relogin", ["login"])).toEqual([]);
  });

  it("cuts a snippet around the first match, at word boundaries, with its ranges", () => {
    const before = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const after = Array.from({ length: 60 }, (_, i) => `tail${i}`).join("\n\n");
    const { snippet, highlights } = makeSnippet(`${before} the needle is here ${after}`, ["needle"]);
    expect(snippet.startsWith("… word")).toBe(true);
    expect(snippet.endsWith(" …")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(170);
    expect(snippet).not.toContain("\n");
    expect(marked(snippet, highlights)).toEqual(["needle"]);
    expect(makeSnippet("short text, no match", ["zzz"])).toEqual({ snippet: "short text, no match", highlights: [] });
    expect(makeSnippet("", ["zzz"])).toEqual({ snippet: "", highlights: [] });
    // An emoji at the cut is not split in half.
    const emoji = makeSnippet("🐛".repeat(200), ["x"]).snippet;
    expect(emoji.endsWith("🐛 …")).toBe(true);
  });

  it("marks the close words of a search too, whole", () => {
    const text = "Footer and footers, not foot";
    expect(marked(text, highlightRanges(text, ["footr"], new Set(["footer"])))).toEqual(["Footer"]);
    expect(marked(text, highlightRanges(text, ["foot"], new Set(["footer"])))).toEqual(["Footer", "footers", "foot"]);
    const { snippet, highlights } = makeSnippet("The FOOTER overlaps.", ["footr"], new Set(["footer"]));
    expect(marked(snippet, highlights)).toEqual(["FOOTER"]);
  });

  it("reads Markdown as its text: the words, not the syntax", () => {
    const read = (source: string) => markdownText(source).replace(/\s+/g, " ").trim();
    expect(read("## Steps\n\n1. Open **/checkout**\n2. Press `Pay` in [the form](https://example.com/pay \"Pay\")\n\n```css\n.footer { color: red }\n```")).toBe(
      "Steps Open /checkout Press Pay in the form .footer { color: red }",
    );
    expect(read("*one* _two_ __three__ ~~four~~ ***five***")).toBe("one two three four five");
    expect(read("- [ ] Works with the keyboard\n- [x] Documented\n* plain item\n\n10) tenth")).toBe("Works with the keyboard Documented plain item tenth");
    expect(read("- \\[ ] not a task")).toBe("[ ] not a task");
    expect(read("![the footer, cut off](/w/acme/attachments/1/a.png) and ![](https://example.com/a.png)")).toBe("the footer, cut off and");
    expect(read('<div class="note">\nSee <b>this</b> &amp; that\n</div>\n\nInline <span title="x">html</span><!-- hidden --> <script>alert(1)</script>')).toBe(
      "See this & that Inline html alert(1)",
    );
    expect(read("> quoted\n\n| a | b |\n|---|---|\n| c | d |\n\nTitle\n=====\n\n---\n\nAfter")).toBe("quoted a b c d Title After");
    expect(read("<https://example.com/x> and https://example.org")).toBe("https://example.com/x and https://example.org");
    expect(read("[text][ref] too\n\n[ref]: https://example.com/ref")).toBe("text too");
    expect(read("5 &lt; 6 \\*not emphasis\\* `**code**`\n\n    indented code")).toBe("5 < 6 *not emphasis* **code** indented code");
    expect(read("Plain words only.")).toBe("Plain words only.");
    expect(read("")).toBe("");
  });

  it("allows one typo from four letters and two from eight, none in numbers or short words", () => {
    expect(["bug", "footr", "keyboard", "authentication", "v123", "1234", "ошибко", "x".repeat(41)].map(typosAllowed)).toEqual([0, 1, 2, 2, 0, 0, 1, 0]);
    expect(editDistance("footr", "footer")).toBe(1);
    expect(editDistance("teh", "the")).toBe(1);
    expect(editDistance("foter", "footr")).toBe(2);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("ошибко", "ошибка")).toBe(1);
    expect(editDistance("🐛a", "🐛b")).toBe(1);
    expect(trigramSimilarity("footr", "footer")).toBeCloseTo(4 / 9);
    expect(trigramSimilarity("footer", "footer")).toBe(1);
  });

  it("reads issue keys in any case", () => {
    expect(parseIssueKey("web-42")).toEqual({ projectKey: "WEB", number: 42 });
    expect(parseIssueKey(" WEB-7 ")).toEqual({ projectKey: "WEB", number: 7 });
    expect(parseIssueKey("WEB-0")).toBeNull();
    expect(parseIssueKey("WEB-99999999999")).toBeNull();
    expect(parseIssueKey("W-1")).toBeNull();
    expect(parseIssueKey("web 42")).toBeNull();
  });
});

describe.each(testDialects)("search on %s", (dialect) => {
  let handle: DatabaseHandle;
  let db: Database;
  let ada: number;
  let acme: number;
  let other: number;
  let web: SeededProject;
  let api: SeededProject;
  let foreign: SeededProject;

  /** Files an issue; returns its id and key. */
  async function file(project: SeededProject, title: string, description = "") {
    const created = await createIssue(db, { project, reporterId: ada, fields: fields(title, description), now: t0 });
    if (!("number" in created)) throw new Error(`not created: ${JSON.stringify(created)}`);
    const row = await db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .select(["issues.id", "issues.version", "projects.key"])
      .where("issues.project_id", "=", project.id)
      .where("issues.number", "=", created.number)
      .executeTakeFirstOrThrow();
    return { id: row.id, version: row.version, key: `${row.key}-${created.number}` };
  }

  /** The project an issue is in, as domain writes take it. */
  const projectOf = async (issueId: number) => {
    const { project_id } = await db.selectFrom("issues").select("project_id").where("id", "=", issueId).executeTakeFirstOrThrow();
    return { id: project_id, workspace_id: acme };
  };

  async function comment(issueId: number, body: string): Promise<number> {
    await addComment(db, { project: await projectOf(issueId), issueId, authorId: ada, body, now: t0 });
    const row = await db.selectFrom("comments").select("id").where("issue_id", "=", issueId).orderBy("id", "desc").executeTakeFirstOrThrow();
    return row.id;
  }

  const search = (q: string, page = 1, workspaceId = acme) => searchIssues(handle, { workspaceId, q, page });
  const keys = async (q: string, workspaceId = acme) => (await search(q, 1, workspaceId)).results.map((r) => `${r.projectKey}-${r.number}`);

  withMigratedDatabase(dialect, (opened) => ({ handle, db } = opened));

  beforeEach(async () => {
    await emptyWorkspaceTables(db);
    const acmeSeed = await seedTestWorkspace(db, { slug: "acme", at: t0, members: { Ada: "owner" }, projects: { WEB: "WEB", API: "API" } });
    const otherSeed = await seedTestWorkspace(db, { slug: "other", at: t0, projects: { OTH: "OTH" } });
    ada = acmeSeed.users.Ada;
    acme = acmeSeed.id;
    other = otherSeed.id;
    ({ WEB: web, API: api } = acmeSeed.projects);
    foreign = otherSeed.projects.OTH;
  });

  it("finds issues by title, description and comment, titles first", async () => {
    const byComment = await file(web, "Safari quirks", "Rendering differences.");
    await comment(byComment.id, "The login fails on Safari 17.");
    const byDescription = await file(api, "Token refresh", "After the login the token expires too early.");
    const byTitle = await file(web, "Login button does nothing");
    await file(web, "Unrelated crash", "Nothing to see.");

    const found = await search("login");
    expect(found.total).toBe(3);
    expect(found.results.map((r) => `${r.projectKey}-${r.number}`)).toEqual(expect.arrayContaining([byTitle.key, byDescription.key, byComment.key]));
    expect(found.results[0]).toMatchObject({ id: byTitle.id, title: "Login button does nothing", status: "todo" });
    expect(found.results.findIndex((r) => r.id === byTitle.id)).toBeLessThan(found.results.findIndex((r) => r.id === byDescription.id));

    const viaComment = found.results.find((r) => r.id === byComment.id)!;
    expect(viaComment.snippet).toBe("The login fails on Safari 17.");
    expect(marked(viaComment.snippet, viaComment.snippetHighlights)).toEqual(["login"]);
    expect(viaComment.titleHighlights).toEqual([]);
    const viaDescription = found.results.find((r) => r.id === byDescription.id)!;
    expect(marked(viaDescription.snippet, viaDescription.snippetHighlights)).toEqual(["login"]);
    expect(marked(found.results[0]!.title, found.results[0]!.titleHighlights)).toEqual(["Login"]);
  });

  it("ranks a title match above description-only matches, even several of them", async () => {
    const descriptions = [];
    for (let i = 0; i < 3; i++) descriptions.push(await file(web, `Issue ${i}`, `The dashboard is slow when the dashboard loads (${i}).`));
    const titled = await file(api, "Dashboard redesign", "New layout.");
    const found = await search("dashboard");
    expect(found.total).toBe(4);
    expect(found.results[0]!.id).toBe(titled.id);
  });

  it("gives one result per issue, however many of its comments match, with the best match's snippet", async () => {
    const issue = await file(web, "Flaky build");
    await comment(issue.id, "Seen the timeout again today.");
    await comment(issue.id, "timeout timeout timeout: the runner timeout is too short");
    await comment(issue.id, "Another timeout.");
    const found = await search("timeout");
    expect(found.total).toBe(1);
    expect(found.results).toHaveLength(1);
    expect(found.results[0]!.id).toBe(issue.id);
    expect(found.results[0]!.snippetHighlights.length).toBeGreaterThan(0);
  });

  it("requires every word, each as a word or the start of one", async () => {
    const both = await file(web, "Authentication tokens expire", "");
    await file(web, "Authentication screen", "");
    await file(web, "Refresh tokens", "");
    expect(await keys("authent")).toHaveLength(2);
    expect(await keys("auth tok")).toEqual([both.key]);
    expect(await keys("tokens expire")).toEqual([both.key]);
    expect(await keys("hentication")).toEqual([]);
    expect(await keys("authentication missing")).toEqual([]);
  });

  it("finds words a typo away, ranked after every issue with the words as typed", async () => {
    const inTitle = await file(web, "Footer links are broken", "Seen on every page.");
    const inDescription = await file(api, "Layout", "The footer is gray on the checkout.");
    const misspelt = await file(web, "Foter misaligned", "");
    const typedAsSearched = await file(web, "Spelling", "");
    await comment(typedAsSearched.id, "Someone wrote footr here.");
    await file(web, "Unrelated", "Nothing to see.");

    // The words as typed first, then close words ("foter", "footr"): a close word in a title stays
    // below the word in a description.
    expect(await keys("footer")).toEqual([inTitle.key, inDescription.key, misspelt.key, typedAsSearched.key]);
    expect((await search("footer")).total).toBe(4);
    // "footr": the issue with the word as typed first, even in a comment; then those with "footer"
    // ("foter" is two edits away).
    expect(await keys("footr")).toEqual([typedAsSearched.key, inTitle.key, inDescription.key]);
    expect(await keys("footr links")).toEqual([inTitle.key]);
    expect(await keys("FOOTR broken")).toEqual([inTitle.key]);
    expect(await keys("footr nothing")).toEqual([]);

    const found = await search("footr");
    const title = found.results.find((r) => r.id === inTitle.id)!;
    expect(marked(title.title, title.titleHighlights)).toEqual(["Footer"]);
    const description = found.results.find((r) => r.id === inDescription.id)!;
    expect(description.snippet).toBe("The footer is gray on the checkout.");
    expect(marked(description.snippet, description.snippetHighlights)).toEqual(["footer"]);
    const typed = found.results.find((r) => r.id === typedAsSearched.id)!;
    expect(marked(typed.snippet, typed.snippetHighlights)).toEqual(["footr"]);
  });

  it("corrects words of every script and accent, of titles, descriptions and comments as they change", async () => {
    const cyrillic = await file(web, "Ошибка входа", "");
    const cafe = await file(web, "Café menu", "");
    const issue = await file(api, "Original", "");
    const swapped = await file(api, "Steps to reproduce", "");
    expect(await keys("ошипка")).toEqual([cyrillic.key]);
    // Two letters swapped across the middle of the word; a letter changed in a short word.
    expect(await keys("stpes")).toEqual([swapped.key]);
    const pedal = await file(api, "Foot pedal", "");
    expect(await keys("fxot")).toEqual([pedal.key]);
    // Typos at either end, and two in a long word.
    const login = await file(api, "Authentication fails", "");
    expect(await keys("xuthentication")).toEqual([login.key]);
    expect(await keys("authenticatiox")).toEqual([login.key]);
    expect(await keys("athentcation")).toEqual([login.key]);
    expect(await keys("xuthenticatiox")).toEqual([login.key]);
    expect(await keys("xxthenticatiox")).toEqual([]);
    expect(await keys("caffe")).toEqual([cafe.key]);
    expect(await keys("dirigble")).toEqual([]);
    const commentId = await comment(issue.id, "A dirigible, seen twice.");
    expect(await keys("dirigble")).toEqual([issue.key]);
    await editComment(db, { project: api, issueId: issue.id, commentId, actorId: ada, body: "An ornithopter instead.", now: t0 });
    expect(await keys("ornitopter")).toEqual([issue.key]);
    const saved = await updateIssue(db, { project: api, issueId: issue.id, actorId: ada, version: issue.version, changes: { description: "A zeppelin, too." }, now: t0 });
    expect(saved).toMatchObject({ ok: true });
    expect(await keys("zepelin")).toEqual([issue.key]);
    // A word no issue has any more finds nothing, though the vocabulary keeps it.
    await deleteComment(db, { project: api, issueId: issue.id, commentId, actorId: ada, canDeleteAny: false, now: t0 });
    expect(await keys("ornitopter")).toEqual([]);
  });

  it("takes short words, numbers and other workspaces' words as typed", async () => {
    await file(web, "Bug in 1234", "");
    const theirs = await file(foreign, "Footer elsewhere", "");
    expect(await keys("bgu")).toEqual([]);
    expect(await keys("1235")).toEqual([]);
    expect(await keys("footr")).toEqual([]);
    expect(await keys("footr", other)).toEqual([theirs.key]);
  });

  it("pages through the words as typed, then the close words, every issue once", async () => {
    const now = t0.toISOString();
    const issues = (from: number, description: string) =>
      Array.from({ length: 60 }, (_, i) => ({
        project_id: web.id,
        number: from + i,
        title: `Bulk issue ${from + i}`,
        description,
        status: "backlog" as const,
        created_at: now,
        updated_at: now,
      }));
    await db.insertInto("issues").values([...issues(1, "the keyboard"), ...issues(61, "the keybaord")]).execute();
    const pages = [await search("keyboard", 1), await search("keyboard", 2), await search("keyboard", 3)];
    expect(pages.map((p) => [p.results.length, p.total, p.pageCount])).toEqual([
      [50, 120, 3],
      [50, 120, 3],
      [20, 120, 3],
    ]);
    const numbers = pages.flatMap((p) => p.results.map((r) => r.number));
    expect(new Set(numbers).size).toBe(120);
    // Every issue with "keyboard" before every issue with only "keybaord".
    expect(numbers.slice(0, 60).every((n) => n <= 60)).toBe(true);
    const [close] = pages[2]!.results;
    expect(marked(close!.snippet, close!.snippetHighlights)).toEqual(["keybaord"]);
  });

  it("shows snippets as the text reads, without Markdown, the matching words marked", async () => {
    const markdown = await file(
      web,
      "Checkout broken",
      '## Steps\n\n1. Open **/checkout**\n2. Press `Pay` in [the form](https://example.com/form)\n\n```css\n.footer { color: red }\n```\n\n<b>Seen</b> under the footer &amp; header.',
    );
    const [hit] = (await search("footer")).results;
    expect(hit!.id).toBe(markdown.id);
    expect(hit!.snippet).toBe("Steps Open /checkout Press Pay in the form .footer { color: red } Seen under the footer & header.");
    expect(marked(hit!.snippet, hit!.snippetHighlights)).toEqual(["footer", "footer"]);

    // A word only in a link's URL is not in the text: the snippet comes from the comment that has it.
    const linked = await file(web, "Payment", "See [the notes](https://example.com/zeppelin) first.");
    await comment(linked.id, "> The **zeppelin** page, [again](https://example.com).");
    const [viaComment] = (await search("zeppelin")).results;
    expect(viaComment!.snippet).toBe("The zeppelin page, again.");
    expect(marked(viaComment!.snippet, viaComment!.snippetHighlights)).toEqual(["zeppelin"]);

    // A title match shows the description's beginning, as text.
    const titled = await file(web, "Quokka sighting", "- [ ] **Check** the _logs_\n- [x] Done");
    const [head] = (await search("quokka")).results;
    expect(head!.id).toBe(titled.id);
    expect(head!.snippet).toBe("Check the logs Done");
    expect(head!.snippetHighlights).toEqual([]);

    // Far into a long description: the snippet is around the match, cut with "…".
    const long = await file(api, "Long read", `${"Filler words here. ".repeat(2_000)}\n\nThe **wombat** was found.\n\n${"More words. ".repeat(800)}`);
    const [far] = (await search("wombat")).results;
    expect(far!.id).toBe(long.id);
    expect(far!.snippet.startsWith("… ")).toBe(true);
    expect(far!.snippet.endsWith(" …")).toBe(true);
    expect(far!.snippet).toContain("The wombat was found.");
    expect(marked(far!.snippet, far!.snippetHighlights)).toEqual(["wombat"]);
  });

  it("finds an issue whose words are spread over its title, description and comments, and snippets a matching comment", async () => {
    const spread = await file(web, "Checkout page", "Payment provider times out.");
    await comment(spread.id, "Nothing here.");
    await comment(spread.id, "Seen with the Bancontact wallet only.");
    await file(web, "Checkout wallet", "");
    expect(await keys("checkout payment bancontact")).toEqual([spread.key]);
    const [hit] = (await search("bancontact")).results;
    expect(hit!.snippet).toBe("Seen with the Bancontact wallet only.");
    expect(marked(hit!.snippet, hit!.snippetHighlights)).toEqual(["Bancontact"]);
  });

  it("takes any number of the longest comments on one issue", { timeout: 30_000 }, async () => {
    const issue = await file(web, "Long discussion");
    for (let c = 0; c < 30; c++) {
      let body = "";
      for (let w = 0; body.length < 9_980; w++) body += `c${c}w${w} `;
      await comment(issue.id, body.slice(0, 10_000).trim());
    }
    expect(await keys("c0w7")).toEqual([issue.key]);
    expect(await keys("c24w3")).toEqual([issue.key]);
  });

  it("ignores case and Latin accents, and finds words in any script", async () => {
    const cafe = await file(web, "Café menu is wrong", "Prices at the CAFÉ.");
    const resume = await file(web, "Upload a resume", "");
    const cyrillic = await file(web, "Ошибка входа в систему", "Пользователь не может войти.");
    const chinese = await file(web, "中文搜索 does not work", "");
    const arabic = await file(web, "مرحبا بالعالم", "");
    const greek = await file(web, "Σφάλμα σύνδεσης", "");

    expect(await keys("cafe")).toEqual([cafe.key]);
    expect(await keys("CAFÉ")).toEqual([cafe.key]);
    expect(await keys("Cafè")).toEqual([cafe.key]);
    expect(await keys("RÉSUMÉ")).toEqual([resume.key]);
    expect(await keys("ошибка")).toEqual([cyrillic.key]);
    expect(await keys("ВОЙТИ")).toEqual([cyrillic.key]);
    expect(await keys("вход")).toEqual([cyrillic.key]);
    expect(await keys("中文")).toEqual([chinese.key]);
    expect(await keys("مرحبا")).toEqual([arabic.key]);
    expect(await keys("σφάλμα")).toEqual([greek.key]);

    const [hit] = (await search("cafe")).results;
    expect(marked(hit!.title, hit!.titleHighlights)).toEqual(["Café"]);
    expect(marked(hit!.snippet, hit!.snippetHighlights)).toEqual(["CAFÉ"]);
    const [russian] = (await search("ошибка вход")).results;
    expect(marked(russian!.title, russian!.titleHighlights)).toEqual(["Ошибка", "входа"]);
  });

  it("splits words at punctuation: keys, e-mail addresses, paths, versions", async () => {
    const issue = await file(web, "Crash in v1.2.3", "Reported by user@example.com, see /usr/local/bin and WEB-42; snake_case_name.");
    expect(await keys("example")).toEqual([issue.key]);
    expect(await keys("local bin")).toEqual([issue.key]);
    expect(await keys("42")).toEqual([issue.key]);
    expect(await keys("v1 3")).toEqual([issue.key]);
    expect(await keys("case name")).toEqual([issue.key]);
  });

  it("follows edits of titles, descriptions and comments, and forgets deleted comments and issues", async () => {
    const issue = await file(web, "Original heading", "first draft");
    expect(await keys("original")).toEqual([issue.key]);

    const saved = await updateIssue(db, {
      project: web,
      issueId: issue.id,
      actorId: ada,
      version: issue.version,
      changes: { title: "Renamed heading", description: "second version" },
      now: t0,
    });
    expect(saved).toMatchObject({ ok: true });
    expect(await keys("original")).toEqual([]);
    expect(await keys("draft")).toEqual([]);
    expect(await keys("renamed")).toEqual([issue.key]);
    expect(await keys("second")).toEqual([issue.key]);

    const commentId = await comment(issue.id, "mention of zeppelin");
    expect(await keys("zeppelin")).toEqual([issue.key]);
    await editComment(db, { project: web, issueId: issue.id, commentId, actorId: ada, body: "mention of dirigible", now: t0 });
    expect(await keys("zeppelin")).toEqual([]);
    expect(await keys("dirigible")).toEqual([issue.key]);
    await deleteComment(db, { project: web, issueId: issue.id, commentId, actorId: ada, canDeleteAny: false, now: t0 });
    expect(await keys("dirigible")).toEqual([]);
    // A comment marked deleted by some other path (its body kept) is not searched either.
    const kept = await comment(issue.id, "ornithopter");
    await db.updateTable("comments").set({ deleted_at: t0.toISOString() }).where("id", "=", kept).execute();
    expect(await keys("ornithopter")).toEqual([]);

    const gone = await file(api, "Doomed issue");
    await comment(gone.id, "doomed comment");
    await db.deleteFrom("activities").where("issue_id", "=", gone.id).execute();
    await db.deleteFrom("issues").where("id", "=", gone.id).execute();
    expect(await keys("doomed")).toEqual([]);
    expect(await keys("renamed")).toEqual([issue.key]);
  });

  it("never shows another workspace's issues", async () => {
    const mine = await file(web, "Shared word quasar");
    const theirs = await file(foreign, "Quasar too", "quasar everywhere");
    await comment(theirs.id, "quasar in a comment");
    await comment(mine.id, "only here");
    expect(await keys("quasar")).toEqual([mine.key]);
    expect(await keys("quasar", other)).toEqual([theirs.key]);
    expect(await keys("quasar", 999_999)).toEqual([]);
    expect(await keys("only", other)).toEqual([]);
  });

  it("pages by 50, best first, every issue once", async () => {
    const now = t0.toISOString();
    await db
      .insertInto("issues")
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          project_id: web.id,
          number: i + 1,
          title: `Bulk issue ${i + 1}`,
          description: "generated",
          status: "backlog" as const,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const pages = [await search("bulk", 1), await search("bulk", 2), await search("bulk", 3)];
    expect(pages.map((p) => p.results.length)).toEqual([searchPageSize, searchPageSize, 20]);
    expect(pages.map((p) => [p.total, p.page, p.pageCount])).toEqual([
      [120, 1, 3],
      [120, 2, 3],
      [120, 3, 3],
    ]);
    expect(new Set(pages.flatMap((p) => p.results.map((r) => r.id))).size).toBe(120);
    // Past the end (an old link): the last page.
    const beyond = await search("bulk", 99);
    expect([beyond.page, beyond.results.length]).toEqual([3, 20]);
    expect((await search("bulk", 0)).page).toBe(1);
    expect(await search("nothing-here", 4)).toEqual({ results: [], total: 0, page: 1, pageCount: 1 });
  });

  it("answers any input without an error, and finds nothing without words", async () => {
    const issue = await file(web, "Login and not near", "body with the word title: and issues");
    const hostile = [
      `"`,
      `'`,
      `""`,
      `"login`,
      `login"`,
      `'login'`,
      `login" OR "x`,
      "AND",
      "OR",
      "NOT",
      "NEAR",
      "NEAR(login near, 2)",
      "login AND",
      "login OR not",
      "NOT login",
      "*",
      "login*",
      "^login",
      "title:login",
      "{title body}: login",
      "(login",
      "login)",
      "-login",
      "+login",
      "login -near",
      "':*",
      "login:*",
      "login & | ! <-> near",
      "!!!",
      "\\",
      "%_%",
      "\u0000login\u0000",
      `'); drop table issues; --`,
      `"; DELETE FROM search_index; --`,
      "1=1' or '1'='1",
      "a".repeat(10_000),
      `${"login ".repeat(2_000)}`,
      "x ".repeat(5_000),
      "🐛🔥👩‍💻",
      "login 🐛",
      "中文",
      "مرحبا",
      "Привет",
      "\u202egnp.exe",
      "\ud800",
      "e\u0301",
    ];
    for (const q of hostile) {
      const found = await search(q);
      expect(found.results.length, q.slice(0, 40)).toBeLessThanOrEqual(searchPageSize);
      expect(found.total).toBe(found.results.length);
    }
    // The words of a hostile query still find, and its operators do nothing.
    for (const q of [`"login`, `login"`, "login*", "^login", "-login", "(login", "login)", "\u0000login\u0000", "login & | !"]) {
      expect(await keys(q), q).toEqual([issue.key]);
    }
    expect(await keys("NOT login")).toEqual([issue.key]);
    expect(await keys("title:login")).toEqual([issue.key]);
    for (const q of ["", "   ", `"`, "*", "🐛🔥", "!!!", "-", "'); --"]) {
      expect(await search(q), q).toEqual({ results: [], total: 0, page: 1, pageCount: 1 });
    }
    // Nothing was dropped or deleted.
    expect(await keys("login")).toEqual([issue.key]);
  });

  it("finds an issue by its key in the workspace only", async () => {
    const issue = await file(web, "Keyed");
    await file(foreign, "Elsewhere");
    expect(await findIssueByKey(db, acme, "web-1")).toEqual({ issueId: issue.id, projectKey: "WEB", number: 1 });
    expect(await findIssueByKey(db, acme, "WEB-2")).toBeUndefined();
    expect(await findIssueByKey(db, acme, "OTH-1")).toBeUndefined();
    expect(await findIssueByKey(db, other, "oth-1")).toMatchObject({ projectKey: "OTH", number: 1 });
    expect(await findIssueByKey(db, acme, "keyed")).toBeUndefined();
    expect(await findIssueByKey(db, acme, "WEB-99999999999")).toBeUndefined();
  });

  if (dialect === "postgres") {
    it("folds text in the database exactly as the query's words are folded", async () => {
      const letters: string[] = [];
      for (const [low, high] of [[0xc0, 0x24f], [0x1e00, 0x1eff], [0x391, 0x3c9], [0x410, 0x44f]] as const) {
        for (let code = low; code <= high; code++) if (/\p{L}/u.test(String.fromCodePoint(code))) letters.push(String.fromCodePoint(code));
      }
      const { rows } = await sql<{ folded: string }>`select cairn_search_text(${letters.join(" ")}) as folded`.execute(db);
      const databaseWords = rows[0]!.folded.split(" ");
      expect(databaseWords).toHaveLength(letters.length);
      const mismatches = letters.filter((letter, i) => databaseWords[i] !== foldWord(letter)).map((letter) => `${letter}: ${databaseWords[letters.indexOf(letter)]} ≠ ${foldWord(letter)}`);
      expect(mismatches).toEqual([]);

      // All-ASCII text takes a shorter path (nothing to fold): words split and lower-cased the same.
      const ascii = "Fix WEB-42: User@Example.COM can't log in (v1.2.3)";
      const { rows: asciiRows } = await sql<{ folded: string }>`select cairn_search_text(${ascii}) as folded`.execute(db);
      expect(asciiRows[0]!.folded.split(" ").filter(Boolean)).toEqual(["fix", "web", "42", "user", "example", "com", "can", "t", "log", "in", "v1", "2", "3"]);
    });
  }
});

describe.each(testDialects)("the search migration on %s", (dialect) => {
  it("indexes the issues and comments that existed before it", async () => {
    const database = await createTestDatabase(dialect);
    const handle = database.open();
    try {
      const earlier: Record<string, Migration> = {};
      for (const [name, module] of Object.entries({ "0001_foundation": foundation, "0002_accounts": accounts, "0003_projects_issues": projectsIssues })) {
        earlier[name] = { up: (db: Kysely<any>) => module.up(db, dialect) };
      }
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => earlier } });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();

      const db = handle.db;
      const now = t0.toISOString();
      const user = await db
        .insertInto("users")
        // The users table as it was then, without a handle.
        .values({ email: "old@example.com", name: "Old", password_hash: "x", is_instance_admin: 1, created_at: now, updated_at: now } as never)
        .returning("id")
        .executeTakeFirstOrThrow();
      const workspace = await db.insertInto("workspaces").values({ slug: "old", name: "Old", created_at: now, updated_at: now }).returning("id").executeTakeFirstOrThrow();
      const project = await db
        .insertInto("projects")
        .values({ workspace_id: workspace.id, key: "OLD", name: "Old", created_at: now, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      const issue = await db
        .insertInto("issues")
        .values({ project_id: project.id, number: 1, title: "Legacy title", description: "legacy description", status: "todo", created_at: now, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("comments").values({ issue_id: issue.id, author_id: user.id, body: "archaeology", created_at: now, updated_at: now }).execute();
      await db
        .insertInto("comments")
        .values({ issue_id: issue.id, author_id: user.id, body: "buried", deleted_at: now, created_at: now, updated_at: now })
        .execute();

      await migrateToLatest(handle);
      const found = (q: string) => searchIssues(handle, { workspaceId: workspace.id, q });
      expect((await found("legacy")).results.map((r) => r.id)).toEqual([issue.id]);
      expect((await found("archaeology")).results.map((r) => r.id)).toEqual([issue.id]);
      expect((await found("buried")).results).toEqual([]);
      // Their words are corrected too.
      expect((await found("archaeolgy")).results.map((r) => r.id)).toEqual([issue.id]);
      expect((await found("legasy")).results.map((r) => r.id)).toEqual([issue.id]);
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });
});
