/**
 * The API's refusals: JSON `{"error": {"code", "message", "fields"?, "digest"?}}` with the codes
 * and statuses of docs/product.md, Errors (and SPEC §8), the same catalogue the pages follow.
 */
export const apiErrorStatus = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unexpected: 500,
  unavailable: 503,
} as const;

export type ApiErrorCode = keyof typeof apiErrorStatus;

/** Each bad field's messages, by its name in the request (a body field or a query parameter). */
export type FieldMessages = Record<string, string[]>;

export type ApiErrorBody = { error: { code: ApiErrorCode; message: string; fields?: FieldMessages; digest?: string } };

/** A refusal thrown by an API handler (or by what it calls): answered as its JSON error. */
export class ApiRefusal extends Error {
  override name = "ApiRefusal";
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: { fields?: FieldMessages; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

/** The code of a status a page's gate answered with (404 or 403 from app/auth/authorization.server.ts). */
export function apiErrorCodeOf(status: number): ApiErrorCode {
  const code = (Object.keys(apiErrorStatus) as ApiErrorCode[]).find((c) => apiErrorStatus[c] === status);
  return code ?? (status >= 500 ? "unexpected" : "validation");
}

export function apiErrorResponse(
  code: ApiErrorCode,
  message: string,
  extra: { fields?: FieldMessages; digest?: string; headers?: HeadersInit } = {},
): Response {
  const body: ApiErrorBody = {
    error: { code, message, ...(extra.fields ? { fields: extra.fields } : {}), ...(extra.digest ? { digest: extra.digest } : {}) },
  };
  return Response.json(body, { status: apiErrorStatus[code], headers: extra.headers });
}
