import type { Role } from "~/db/schema";
import type { LabelColor } from "~/labels/palette";
import type { Random } from "./random";

/** The seeded team: the owner first. Emails are `<first name>@<workspace slug>.example.com`. */
export const demoPeople: readonly { name: string; role: Role; workload: number }[] = [
  { name: "Ada Lovelace", role: "owner", workload: 3 },
  { name: "Grace Hopper", role: "admin", workload: 2 },
  { name: "Alan Turing", role: "admin", workload: 2 },
  { name: "Katherine Johnson", role: "member", workload: 3 },
  { name: "Margaret Hamilton", role: "member", workload: 3 },
  { name: "Edsger Dijkstra", role: "member", workload: 2 },
  { name: "Barbara Liskov", role: "member", workload: 2 },
  { name: "Donald Knuth", role: "member", workload: 1 },
  { name: "Frances Allen", role: "member", workload: 2 },
  { name: "Ken Thompson", role: "member", workload: 2 },
  { name: "Radia Perlman", role: "viewer", workload: 0 },
  { name: "Tim Berners-Lee", role: "viewer", workload: 0 },
];

export function demoEmail(name: string, slug: string): string {
  return `${name.split(" ")[0]!.toLowerCase()}@${slug}.example.com`;
}

/** Projects, each with its share of the issues and the parts of the product its issues are about. */
export const demoProjects: readonly { key: string; name: string; description: string; share: number; areas: readonly string[] }[] = [
  {
    key: "WEB",
    name: "Web app",
    description: "The browser front end: pages, forms and everything people click.",
    share: 35,
    areas: ["the sign-in page", "the issue list", "the settings page", "the dashboard", "the sidebar", "dark mode", "file uploads", "the notifications panel", "the command palette", "the Markdown editor"],
  },
  {
    key: "API",
    name: "API",
    description: "The public REST API, webhooks and integrations.",
    share: 25,
    areas: ["the issues endpoint", "webhooks", "the rate limiter", "pagination", "OAuth tokens", "the CSV export", "the search endpoint", "API keys", "the GitHub integration"],
  },
  {
    key: "MOB",
    name: "Mobile",
    description: "The iOS and Android apps.",
    share: 15,
    areas: ["push notifications", "the offline cache", "the issue detail screen", "the share sheet", "biometric sign-in", "the home screen widget", "deep links"],
  },
  {
    key: "OPS",
    name: "Operations",
    description: "Infrastructure, deployments, monitoring and on-call.",
    share: 15,
    areas: ["the deploy pipeline", "database backups", "the staging cluster", "TLS certificates", "the log pipeline", "alerting", "the CDN", "disk usage on the workers"],
  },
  {
    key: "DOCS",
    name: "Documentation",
    description: "Guides, references and the changelog.",
    share: 10,
    areas: ["the getting-started guide", "the API reference", "the changelog", "the self-hosting guide", "the FAQ", "screenshots"],
  },
];

export const demoLabels: readonly { name: string; color: LabelColor }[] = [
  { name: "bug", color: "red" },
  { name: "feature", color: "green" },
  { name: "enhancement", color: "blue" },
  { name: "documentation", color: "gray" },
  { name: "performance", color: "orange" },
  { name: "security", color: "purple" },
  { name: "accessibility", color: "teal" },
  { name: "design", color: "pink" },
  { name: "tech debt", color: "amber" },
  { name: "regression", color: "red" },
  { name: "good first issue", color: "teal" },
  { name: "needs triage", color: "indigo" },
  { name: "customer request", color: "indigo" },
  { name: "blocked", color: "orange" },
];

const failures = ["crashes", "hangs", "shows stale data", "loses unsaved input", "returns a 500 error", "renders blank", "times out", "shows the wrong time zone"];
const actions = [
  "saving a draft", "signing in with SSO", "switching workspaces", "uploading a large file", "resizing the window",
  "pasting Markdown", "going offline", "changing the language", "opening a deep link", "sorting by due date",
];
const symptoms = ["a memory leak", "the slow first load", "a broken layout", "a race condition", "a redirect loop", "duplicate notifications", "a flaky test", "an off-by-one error"];
const features = ["keyboard shortcuts", "bulk editing", "CSV import", "saved filters", "email digests", "audit logs", "two-factor sign-in", "custom fields", "a compact view"];
const platforms = ["Safari 17", "Firefox ESR", "Android 14", "iOS 17", "Windows on ARM", "screen readers", "slow 3G networks", "small screens"];
const dependencies = ["React", "PostgreSQL", "Node", "the TLS library", "the Markdown parser", "the charting library", "the date library"];

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const withoutArticle = (area: string) => area.replace(/^the /, "");

type Kind = "bug" | "feature" | "chore";

const titleTemplates: readonly { kind: Kind; make: (area: string, random: Random) => string }[] = [
  { kind: "bug", make: (area, r) => `${capitalize(withoutArticle(area))} ${r.pick(failures)} when ${r.pick(actions)}` },
  { kind: "bug", make: (area, r) => `Fix ${r.pick(symptoms)} in ${area}` },
  { kind: "bug", make: (area, r) => `${capitalize(withoutArticle(area))}: error after ${r.pick(actions)}` },
  { kind: "bug", make: (area, r) => `${capitalize(withoutArticle(area))} is broken on ${r.pick(platforms)}` },
  { kind: "feature", make: (area, r) => `Add ${r.pick(features)} to ${area}` },
  { kind: "feature", make: (area, r) => `Support ${r.pick(platforms)} in ${area}` },
  { kind: "feature", make: (area) => `Improve the performance of ${area}` },
  { kind: "chore", make: (area) => `Refactor ${area}` },
  { kind: "chore", make: (area) => `Write tests for ${area}` },
  { kind: "chore", make: (area, r) => `Upgrade ${r.pick(dependencies)} used by ${area}` },
  { kind: "chore", make: (area) => `Document ${area}` },
];

/** The labels an issue of this kind usually gets first. */
const kindLabel: Record<Kind, string> = { bug: "bug", feature: "feature", chore: "tech debt" };

const hex = (random: Random, length: number) => Array.from({ length }, () => random.int(0, 15).toString(16)).join("");

function bugDescription(area: string, random: Random): string {
  const action = random.pick(actions);
  const parts = [
    `When ${action}, ${area} ${random.pick(failures)}. It started around release 2.${random.int(1, 30)}.`,
    `## Steps to reproduce\n\n1. Open ${area}.\n2. Try ${action}.\n3. Wait a few seconds.`,
    `**Expected:** it just works.\n**Actual:** it ${random.pick(failures)}.`,
  ];
  if (random.chance(0.5)) {
    parts.push(`\`\`\`\nError: request ${hex(random, 8)} failed\n    at handle (server/${withoutArticle(area).replace(/\s+/g, "-")}.ts:${random.int(10, 400)})\n\`\`\``);
  }
  if (random.chance(0.3)) parts.push(`Seen on ${random.pick(platforms)}; see the [incident notes](https://example.com/incidents/${random.int(100, 999)}).`);
  return parts.join("\n\n");
}

function featureDescription(area: string, random: Random): string {
  const feature = random.pick(features);
  return [
    `People keep asking for ${feature} in ${area}. ${random.pick(["It would save the support team hours a week.", "Two customers mentioned it this month.", "Competitors have had it for a while."])}`,
    `## Acceptance criteria\n\n- [ ] Works with the keyboard\n- [ ] Works on ${random.pick(platforms)}\n- [ ] Documented in the changelog`,
    ...(random.chance(0.4) ? [`Design: [mock-ups](https://example.com/design/${hex(random, 6)}). Related to \`${withoutArticle(area)}\`.`] : []),
  ].join("\n\n");
}

function choreDescription(area: string, random: Random): string {
  return [
    `${capitalize(withoutArticle(area))} has grown hard to change. ${random.pick(["Split it into smaller modules.", "Remove the dead code paths first.", "Add tests before touching it."])}`,
    `- Estimated effort: ${random.int(1, 5)} days\n- Owner: whoever picks it up`,
  ].join("\n\n");
}

const descriptions: Record<Kind, (area: string, random: Random) => string> = {
  bug: bugDescription,
  feature: featureDescription,
  chore: choreDescription,
};

/** A title, a Markdown description (empty for some) and the label that fits its kind. */
export function issueText(areas: readonly string[], random: Random): { title: string; description: string; kindLabel: string } {
  const area = random.pick(areas);
  const template = random.pick(titleTemplates);
  return {
    title: template.make(area, random),
    description: random.chance(0.1) ? "" : descriptions[template.kind](area, random),
    kindLabel: kindLabel[template.kind],
  };
}

const commentTemplates: readonly ((random: Random) => string)[] = [
  (r) => `I can reproduce this on ${r.pick(platforms)}.`,
  (r) => `Looks like it started with commit \`${hex(r, 7)}\`.`,
  (r) => `Fixed in #${r.int(100, 9999)}, please verify.`,
  () => "Could we split this into smaller pieces?",
  () => "+1, customers are asking about this.",
  (r) => `Here is the stack trace:\n\n\`\`\`\nTypeError: Cannot read properties of undefined (reading '${r.pick(["id", "name", "items", "status"])}')\n\`\`\``,
  () => "**Update:** the fix is in review.",
  (r) => `Is this still happening after ${r.pick(actions)}?`,
  () => "I'll take this one.",
  (r) => `Moving this to next week, blocked on ${r.pick(dependencies)}.`,
  (r) => `Notes from the call:\n\n- agreed on the approach\n- ${r.pick(["needs a migration", "no API change", "behind a flag first"])}`,
];

export function commentText(random: Random): string {
  return random.pick(commentTemplates)(random);
}
