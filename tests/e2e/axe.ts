import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** One serious or critical axe violation on a screen: what the quality bar forbids. */
export type Finding = { page: string; id: string; impact: string; help: string; targets: string[] };

/** Scans the page as it is (WCAG 2.0/2.1 A and AA rules); returns its serious and critical violations. */
export async function scan(page: Page, name: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      page: name,
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.map((node) => `${node.target.join(" ")}${node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, " ")}` : ""}`),
    }));
}

export const describeFindings = (findings: Finding[]) =>
  findings.map((f) => `[${f.page}] ${f.id} (${f.impact}): ${f.help}\n    ${f.targets.join("\n    ")}`).join("\n");
