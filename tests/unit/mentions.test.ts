/** `@handle` mentions in Markdown text (issue 14): which handles a description or comment mentions. */
import { describe, expect, it } from "vitest";
import { mentionedHandles, newlyMentioned } from "~/issues/mentions";

describe("mentionedHandles", () => {
  it("finds whole-word handles, lower-cased, each once, in order", () => {
    expect(mentionedHandles("@Ada and @grace-hopper, then @ada again (cc @linus).")).toEqual(["ada", "grace-hopper", "linus"]);
    expect(mentionedHandles("@ada: look\n@bob")).toEqual(["ada", "bob"]);
  });

  it("skips emails, paths, too short or long handles, double or trailing hyphens, and code", () => {
    expect(mentionedHandles("ada@example.com /@ada x@ada")).toEqual([]);
    expect(mentionedHandles(`@ab @${"a".repeat(40)} @a--b @ab-`)).toEqual([]);
    expect(mentionedHandles("`@ada` and\n```\n@grace\n```\nbut @linus")).toEqual(["linus"]);
  });
});

describe("newlyMentioned", () => {
  it("gives only the handles an edit adds", () => {
    expect(newlyMentioned("@ada", "@ada and @grace")).toEqual(["grace"]);
    expect(newlyMentioned("@ada and @grace", "@grace")).toEqual([]);
  });
});
