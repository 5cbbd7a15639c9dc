/**
 * No issue open: the layout's list takes the whole width (DESIGN.md §3, no "Select an issue"
 * placeholder), so this route adds nothing. The layout's loader has already checked access.
 */
export default function NoIssueOpen() {
  return null;
}
