/**
 * A list row's title link (IssueRow): the row's one link that opens no menu. A selector rather than a
 * marker attribute, which would be a kilobyte of every page of rows. Its own module, so that the
 * keyboard shortcuts (on every workspace page) do not bring the rows' code along.
 */
export const issueLinkSelector = ".row > a:not([aria-haspopup])";
