import { ListTree, OctagonX } from "~/components/icons/icon";
import { progressText, type SubIssueProgress } from "~/issues/issue-links";

/**
 * The marks of sub-issues and relations on a list row or a board card (decision record 021): small,
 * in their own module so that the list and the board carry nothing of the issue page's forms.
 */

/** "Blocked": an open issue blocks this one (a list row, a board card). */
export function BlockedMarker() {
  return (
    <span role="img" aria-label="Blocked" title="Blocked: an open issue blocks it" className="blocked-mark">
      <OctagonX size={14} aria-hidden="true" />
    </span>
  );
}

/** A parent's progress as "3/5" (a list row, a board card), named in full for screen readers. */
export function ProgressMarker({ progress }: { progress: SubIssueProgress }) {
  const name = `Sub-issues: ${progressText(progress)}`;
  return (
    <span role="img" aria-label={name} title={name} className="progress-mark">
      <ListTree size={12} aria-hidden="true" />
      {progress.done}/{progress.total}
    </span>
  );
}
