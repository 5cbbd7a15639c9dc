import { describe, expect, it } from "vitest";
import { issuePath, newlyReferenced, referencedIssues, referenceLimit } from "~/issues/references";

const keys = (text: string) => referencedIssues(text).map((r) => r.key);

describe("issue references in text", () => {
  it("finds each referenced issue once, in order, with its key and number", () => {
    expect(referencedIssues("Blocked by WEB-42, see API-7 and WEB-42 again.")).toEqual([
      { key: "WEB-42", projectKey: "WEB", number: 42 },
      { key: "API-7", projectKey: "API", number: 7 },
    ]);
  });

  it("ignores code, lower case, words around a key and numbers no issue can have", () => {
    expect(keys("`WEB-1` and\n```\nWEB-2\n```\nweb-3 xWEB-4 WEB-5x WEB-6-7 WEB-0 WEB-08 WEB-2147483648 A-1 ABCDEFG-1")).toEqual([]);
    expect(keys("WEB-2147483647")).toEqual(["WEB-2147483647"]);
  });

  it("stops at the limit of distinct references a text may have", () => {
    const many = Array.from({ length: referenceLimit + 20 }, (_, i) => `WEB-${i + 1}`).join(" ");
    expect(keys(many)).toHaveLength(referenceLimit);
  });

  it("tells an edit's new references from those the text already had", () => {
    expect(newlyReferenced("See WEB-1.", "See WEB-1 and WEB-2, and API-3.").map((r) => r.key)).toEqual(["WEB-2", "API-3"]);
    expect(newlyReferenced("See WEB-1 and WEB-2.", "See WEB-2.")).toEqual([]);
  });

  it("makes an issue's path from its key", () => {
    expect(issuePath("acme team", "WEB-42")).toBe("/w/acme%20team/p/WEB/issues/42");
  });
});
