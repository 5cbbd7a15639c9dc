import { apiErrorResponse } from "~/api/api-errors.server";

/** /api/v1 and any other URL under it: a JSON 404, not a page. */
const notFound = async () => apiErrorResponse("not_found", "There is no such API resource: see /api for the reference.");

export const loader = notFound;
export const action = notFound;
