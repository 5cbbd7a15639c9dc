/**
 * What every issue write shares: the project it acts in, and its refusal when the issue is not
 * there. A module of its own so that the writers of issues, comments, attachments and links, and the
 * events they record, all depend on it rather than on each other.
 */

/** The project an issue write acts in: every write is scoped to it (and to its workspace). */
export type ProjectScope = { id: number; workspace_id: number };

/** The refusal of a write whose issue (or comment) is not in the project it names. */
export type NotFound = { ok: false; status: 404; message: string };
export const issueNotFound: NotFound = { ok: false, status: 404, message: "Issue not found." };
