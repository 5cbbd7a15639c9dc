// The app's icons, generated from one place:
// - the icon sprite (app/components/icons/sprite.svg): the lucide icons the app uses, as <symbol>s
//   that every icon refers to with <svg><use href="…sprite.svg#id"/></svg>;
// - the glyph style sheet (app/styles/glyphs.css): Cairn's status and priority glyphs (DESIGN.md §4)
//   as CSS masks, one class each, so that the glyph a list row or board card repeats is an empty
//   `<i class="st-done">` (22 bytes) rather than an <svg><use> (106 bytes); issue 13.
// Regenerate after adding an icon to `lucideIcons` or changing a glyph:
//   node tests/tools/icon-sprite.mjs
// (tests/unit/icon-sprite.test.ts checks that both files are current and have every id the app uses).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const spritePath = fileURLToPath(new URL("../../app/components/icons/sprite.svg", import.meta.url));
export const glyphsPath = fileURLToPath(new URL("../../app/styles/glyphs.css", import.meta.url));

/** The lucide icons drawn by `app/components/icons/icon.tsx`, by their lucide names. */
export const lucideIcons = [
  "archive", "arrow-left", "arrow-up-down", "calendar-days", "check", "chevron-down", "chevron-right",
  "circle-dot", "circle-plus", "circle-user", "download", "file", "file-text", "gauge", "inbox", "kanban", "link", "list",
  "list-filter", "list-tree", "log-out", "menu", "message-square-x", "monitor", "octagon-x", "paperclip", "pencil", "plus", "search",
  "server", "settings", "shield", "signal-high", "tag", "unplug", "user-round", "x",
];

/** The status glyphs (st-…) and the priority glyphs (pr-…), 14 × 14, drawn in currentColor (white is cut out). */
const glyphs = {
  "st-backlog": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5" stroke-dasharray="2 2.1"/>`,
  "st-todo": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5"/>`,
  "st-in_progress": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M7 3.5a3.5 3.5 0 0 1 0 7z" fill="currentColor"/>`,
  "st-in_review": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M7 3.5a3.5 3.5 0 1 1-3.5 3.5H7z" fill="currentColor"/>`,
  "st-done": `<circle cx="7" cy="7" r="6.25" fill="currentColor"/><path d="m4.4 7.2 1.8 1.8 3.5-3.7" fill="none" stroke="#fff" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/>`,
  "st-canceled": `<circle cx="7" cy="7" r="6.25" fill="currentColor"/><path d="m4.9 4.9 4.2 4.2m0-4.2-4.2 4.2" stroke="#fff" stroke-width="1.5" stroke-linecap="round"/>`,
  "pr-none": `<g fill="currentColor"><circle cx="3" cy="7" r="1.1"/><circle cx="7" cy="7" r="1.1"/><circle cx="11" cy="7" r="1.1"/></g>`,
  "pr-low": bars(1),
  "pr-medium": bars(2),
  "pr-high": bars(3),
  "pr-urgent": `<rect x="1" y="1" width="12" height="12" rx="3" fill="currentColor"/><path d="M7 3.8v4" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/><circle cx="7" cy="10.1" r="0.9" fill="#fff"/>`,
};

/** @param {number} filled */
function bars(filled) {
  const rect = (/** @type {number} */ bar) =>
    `<rect x="${1.5 + bar * 4}" y="${8 - bar * 3}" width="3" height="${4.5 + bar * 3}" rx="0.8"${bar < filled ? "" : ` opacity="0.25"`}/>`;
  return `<g fill="currentColor">${[0, 1, 2].map(rect).join("")}</g>`;
}

const attributes = (/** @type {Record<string, string>} */ attrs) =>
  Object.entries(attrs)
    .filter(([name]) => name !== "key")
    .map(([name, value]) => ` ${name}="${value}"`)
    .join("");

/** @param {string} name */
async function lucideSymbol(name) {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve("lucide-react/package.json"));
  const { __iconData } = await import(path.join(root, "dist/esm/icons", `${name}.mjs`));
  const body = __iconData.node.map((/** @type {[string, Record<string, string>]} */ [tag, attrs]) => `<${tag}${attributes(attrs)}/>`).join("");
  // lucide's own defaults (lucide-react's <svg>): a 2 px round stroke on a 24 px grid.
  return `<symbol id="${name}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</symbol>`;
}

export async function buildSprite() {
  const symbols = await Promise.all(lucideIcons.map(lucideSymbol));
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}

export const spriteIds = () => [...lucideIcons];
export const glyphIds = () => Object.keys(glyphs);

/**
 * Each glyph as a luminance mask over `currentColor`: what the drawing paints in currentColor shows,
 * what it paints white (the check of "done", the mark of "urgent") is cut out, so the glyph takes
 * the colour its class has in app/styles/shell.css, in both color schemes.
 */
export function buildGlyphStyles() {
  const mask = (/** @type {string} */ body) =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 14 14">${body.replaceAll("#fff", "#000").replaceAll("currentColor", "#fff")}</svg>`;
  const url = (/** @type {string} */ svg) => `url("data:image/svg+xml,${encodeURIComponent(svg).replaceAll("%20", " ").replaceAll("%3D", "=").replaceAll("%22", "'")}")`;
  const ids = Object.keys(glyphs);
  return [
    "/* Generated by tests/tools/icon-sprite.mjs from its glyphs: edit them there. */",
    "@layer components {",
    `  ${ids.map((id) => `.${id}`).join(",\n  ")} {`,
    "    display: inline-block;",
    "    flex-shrink: 0;",
    "    width: 14px;",
    "    height: 14px;",
    "    /* Drawn by the author's colour in forced colours and in print too, like an <svg> in currentColor. */",
    "    forced-color-adjust: none;",
    "    print-color-adjust: exact;",
    "  }",
    "  /* Browsers without luminance masks (before 2023) show no glyph rather than a square. */",
    "  @supports (mask-mode: luminance) {",
    `    ${ids.map((id) => `.${id}`).join(",\n    ")} {`,
    "      background-color: currentColor;",
    "      mask: var(--glyph) center / 14px 14px no-repeat luminance;",
    "    }",
    "  }",
    ...ids.map((id) => `  .${id} {\n    --glyph: ${url(mask(glyphs[/** @type {keyof typeof glyphs} */ (id)]))};\n  }`),
    "}",
    "",
  ].join("\n");
}

/** Writes `text` to `file` when it differs, and says what it did. @param {string} file @param {string} text @param {string} what */
function writeIfChanged(file, text, what) {
  const current = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return "";
    }
  })();
  if (current !== text) writeFileSync(file, text);
  console.log(`${file}: ${text.length} bytes, ${what}${current === text ? " (unchanged)" : ""}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeIfChanged(spritePath, await buildSprite(), `${spriteIds().length} symbols`);
  writeIfChanged(glyphsPath, buildGlyphStyles(), `${glyphIds().length} glyphs`);
}
