/**
 * The icons (DESIGN.md §4: one icon set), both built by tests/tools/icon-sprite.mjs: every lucide
 * icon the app draws is a <use> of a symbol in app/components/icons/sprite.svg, and every status and
 * priority glyph a class of app/styles/glyphs.css.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { priorities, statuses } from "~/issues/issue-fields";
import { buildGlyphStyles, buildSprite, glyphIds, glyphsPath, spriteIds, spritePath } from "../tools/icon-sprite.mjs";

const sprite = readFileSync(spritePath, "utf8");
const symbolIds = [...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]);
const glyphStyles = readFileSync(glyphsPath, "utf8");
/** The glyph classes that glyphs.css gives a mask. */
const maskedClasses = [...glyphStyles.matchAll(/\.([\w-]+) \{\n\s*--glyph: url\("data:image\/svg\+xml,/g)].map((m) => m[1]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : /\.tsx?$/.test(name) ? [file] : [];
  });
}

describe("the icon sprite", () => {
  it("is current: built from the lucide icons the tool lists", async () => {
    expect(sprite).toBe(await buildSprite());
    expect(symbolIds).toEqual(spriteIds());
  });

  it("has a current glyph class, with its mask, for every status and priority", () => {
    expect(glyphStyles).toBe(buildGlyphStyles());
    expect(maskedClasses).toEqual(glyphIds());
    expect(maskedClasses.sort()).toEqual([...statuses.map((status) => `st-${status}`), ...priorities.map((priority) => `pr-${priority}`)].sort());
  });

  it("has every icon that icon.tsx names, and the app draws no icon outside it", () => {
    const iconModule = readFileSync(path.join(path.dirname(spritePath), "icon.tsx"), "utf8");
    const named = [...iconModule.matchAll(/= icon\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) expect(symbolIds).toContain(id);
    const appDir = path.join(path.dirname(spritePath), "../..");
    const lucideImports = sources(appDir).filter((file) => /from "lucide-react"/.test(readFileSync(file, "utf8")));
    expect(lucideImports).toEqual([]);
  });
});
