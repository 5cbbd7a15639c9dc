import { attachmentIdsIn, inlineImageTypes } from "~/attachments/attachments";
import { type AttachmentSummary, findInlineImages, imageInText } from "~/attachments/attachments.server";
import type { Database } from "~/db/database.server";
import { listMembers } from "~/workspaces/members.server";
import { findReferencedIssues } from "./issue-references.server";
import { type MarkdownOptions, renderMarkdown } from "./markdown.server";
import { referencedIssues, referenceLimit } from "./references";

/**
 * How this workspace's Markdown links `WEB-42` (to the issue, when this workspace has it: one query
 * for all of the texts' references, none when they have none), `@ada` (to the issues assigned to
 * Ada in this project, when she is a member), and which images show inline: this workspace's
 * attachments — the issue's own are known, another's is looked up (one query, when there is one).
 */
export async function markdownOptions(
  db: Database,
  workspace: { id: number; slug: string },
  projectKey: string,
  members: { userId: number; name: string; handle: string }[],
  texts: string[],
  known: readonly AttachmentSummary[] = [],
) {
  const references = new Map(texts.flatMap(referencedIssues).map((reference) => [reference.key, reference]));
  const images = new Map(known.filter((file) => inlineImageTypes.has(file.contentType)).map((file) => [file.id, imageInText(file)]));
  const knownIds = new Set(known.map((file) => file.id));
  const elsewhere = [...new Set(texts.flatMap((text) => attachmentIdsIn(text, workspace.slug)))].filter((id) => !knownIds.has(id));
  const [issues, otherImages] = await Promise.all([
    findReferencedIssues(db, workspace.id, [...references.values()].slice(0, referenceLimit)),
    findInlineImages(db, workspace.id, elsewhere),
  ]);
  return {
    workspaceSlug: workspace.slug,
    issues,
    people: new Map(members.map((m) => [m.handle, { id: m.userId, name: m.name }])),
    mentionHref: (person: { id: number }) => `/w/${encodeURIComponent(workspace.slug)}/p/${projectKey}/issues?assignee=${person.id}`,
    attachments: new Map([...images, ...otherImages]),
  } satisfies MarkdownOptions;
}

/** A description's Preview tab (of a new issue, or of an issue's edit form): its HTML as the issue will show it. */
export async function previewDescription(db: Database, workspace: { id: number; slug: string }, projectKey: string, description: string): Promise<string> {
  const options = await markdownOptions(db, workspace, projectKey, await listMembers(db, workspace.id), [description]);
  return renderMarkdown(description, options);
}
