// The icon sprite (app/components/icons/sprite.svg): Cairn's status and priority glyphs (DESIGN.md
// §4) and the lucide icons the app uses, as <symbol>s that every icon refers to with
// <svg><use href="…sprite.svg#id"/></svg>. Regenerate after adding an icon to `lucideIcons`:
//   node tests/tools/icon-sprite.mjs
// (tests/unit/icon-sprite.test.ts checks that the file is current and has every id the app uses).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const spritePath = fileURLToPath(new URL("../../app/components/icons/sprite.svg", import.meta.url));

/** The lucide icons drawn by `app/components/icons/icon.tsx`, by their lucide names. */
export const lucideIcons = [
  "archive", "arrow-left", "arrow-up-down", "calendar-days", "check", "chevron-down", "chevron-right",
  "circle-dot", "circle-plus", "circle-user", "download", "file-text", "gauge", "kanban", "list",
  "list-filter", "log-out", "menu", "message-square-x", "monitor", "pencil", "plus", "search",
  "server", "settings", "shield", "signal-high", "tag", "unplug", "user-round", "x",
];

/** The status glyphs (s-…) and the priority glyphs (p-…), 14 × 14, coloured by currentColor. */
const glyphs = {
  "s-backlog": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5" stroke-dasharray="2 2.1"/>`,
  "s-todo": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5"/>`,
  "s-in_progress": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M7 3.5a3.5 3.5 0 0 1 0 7z" fill="currentColor"/>`,
  "s-in_review": `<circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M7 3.5a3.5 3.5 0 1 1-3.5 3.5H7z" fill="currentColor"/>`,
  "s-done": `<circle cx="7" cy="7" r="6.25" fill="currentColor"/><path d="m4.4 7.2 1.8 1.8 3.5-3.7" fill="none" stroke="#fff" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/>`,
  "s-canceled": `<circle cx="7" cy="7" r="6.25" fill="currentColor"/><path d="m4.9 4.9 4.2 4.2m0-4.2-4.2 4.2" stroke="#fff" stroke-width="1.5" stroke-linecap="round"/>`,
  "p-none": `<g fill="currentColor"><circle cx="3" cy="7" r="1.1"/><circle cx="7" cy="7" r="1.1"/><circle cx="11" cy="7" r="1.1"/></g>`,
  "p-low": bars(1),
  "p-medium": bars(2),
  "p-high": bars(3),
  "p-urgent": `<rect x="1" y="1" width="12" height="12" rx="3" fill="currentColor"/><path d="M7 3.8v4" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/><circle cx="7" cy="10.1" r="0.9" fill="#fff"/>`,
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
  const symbols = [
    ...Object.entries(glyphs).map(([id, body]) => `<symbol id="${id}" viewBox="0 0 14 14">${body}</symbol>`),
    ...(await Promise.all(lucideIcons.map(lucideSymbol))),
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}

export const spriteIds = () => [...Object.keys(glyphs), ...lucideIcons];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sprite = await buildSprite();
  const current = (() => {
    try {
      return readFileSync(spritePath, "utf8");
    } catch {
      return "";
    }
  })();
  if (current !== sprite) writeFileSync(spritePath, sprite);
  console.log(`${spritePath}: ${sprite.length} bytes, ${spriteIds().length} symbols${current === sprite ? " (unchanged)" : ""}`);
}
