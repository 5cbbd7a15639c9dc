/**
 * The slug and the project key a name suggests (docs/product.md, Rules for what is submitted): one
 * function each, which the create forms run in the browser as the name is typed and the server runs
 * for a field left empty.
 */
import { describe, expect, it } from "vitest";
import { keyFromName } from "~/projects/key-from-name";
import { slugFromName } from "~/workspaces/slug-from-name";
import { workspaceSlugField } from "~/workspaces/workspaces.server";

describe("slugFromName", () => {
  it.each([
    ["Acme", "acme"],
    ["Acme Corp.", "acme-corp"],
    ["  Café Olé  ", "cafe-ole"],
    ["R&D — Team 2", "r-d-team-2"],
    ["ÅngströmLabs", "angstromlabs"],
    ["--Acme--", "acme"],
    ["日本チーム", ""],
    ["", ""],
  ])("%j → %j", (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });

  it("keeps to 40 characters, never ending in a hyphen, so that a long name still makes a valid slug", () => {
    const slug = slugFromName("The quick brown fox jumps over the lazy dog again and again");
    expect(slug).toBe("the-quick-brown-fox-jumps-over-the-lazy");
    expect(workspaceSlugField.safeParse(slug).success).toBe(true);
  });
});

describe("keyFromName", () => {
  it.each([
    ["Website", "WEB"],
    ["ops", "OPS"],
    ["Go", "GO"],
    ["Web app", "WA"],
    ["Customer support portal", "CSP"],
    ["Équipe données", "ED"],
    ["Q3 launch", "QL"],
    ["one two three four five six seven", "OTTFFS"],
    ["X", "X"],
    ["2026", ""],
  ])("%j → %j", (name, key) => {
    expect(keyFromName(name)).toBe(key);
  });
});
