import { multiLineText } from "~/forms/fields.server";

export const commentBodyField = multiLineText({ empty: "Write a comment.", max: 10_000 });
/** A new comment's text, which may be empty when files come with it. */
export const optionalCommentBodyField = multiLineText({ max: 10_000 });
