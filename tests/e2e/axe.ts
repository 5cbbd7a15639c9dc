import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults } from "axe-core";

/** One serious or critical axe violation on a screen: what the quality bar forbids. */
export type Finding = { page: string; id: string; impact: string; help: string; targets: string[] };

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Scans the page as it is (WCAG 2.0/2.1 A and AA rules); returns its serious and critical violations.
 * axe-core runs in the page itself and only the violations come back: the passes' details, which a
 * scan never reads, made up most of its time.
 */
export async function scan(page: Page, name: string): Promise<Finding[]> {
  // A string is evaluated through the DevTools protocol, which the page's CSP does not govern.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (runOnly) => {
    const { axe } = window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } };
    const results = await axe.run(document, { runOnly: { type: "tag", values: runOnly }, resultTypes: ["violations"] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.map((node) => `${node.target.join(" ")}${node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, " ")}` : ""}`),
    }));
  }, tags);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ page: name, ...v }));
}

export const describeFindings = (findings: Finding[]) =>
  findings.map((f) => `[${f.page}] ${f.id} (${f.impact}): ${f.help}\n    ${f.targets.join("\n    ")}`).join("\n");
