import { create as contentDisposition } from "content-disposition";
import { data, redirect } from "react-router";
import { attachmentPath, isPreviewable } from "~/attachments/attachments";
import { contentStream } from "~/attachments/attachment-content.server";
import { findServedAttachment } from "~/attachments/attachments.server";
import { currentUserContext } from "~/auth/current-user.server";
import { appContext } from "~/context/app-context.server";
import { parsePositiveInteger } from "~/forms/fields.server";
import { isWorkspaceSlug } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/$id.$filename";

/**
 * The bytes of an attachment, to members of its workspace; to anyone else (signed out, another
 * workspace's member, a wrong id) it does not exist. It is served as the type its bytes were found
 * to be, and downloaded unless it is an image a page shows inline; the host adds `nosniff` and a
 * sandboxing CSP (app/host/security-headers.server.ts). An id never names other bytes: browsers
 * keep it a year. Its bytes are read a chunk at a time as they are sent.
 */
export async function loader({ params, request, url, context }: Route.LoaderArgs) {
  const user = context.get(currentUserContext);
  const id = parsePositiveInteger(params.id);
  const { db } = context.get(appContext);
  const found = user && id && isWorkspaceSlug(params.workspace) ? await findServedAttachment(db, { workspaceSlug: params.workspace, id, userId: user.id }) : undefined;
  if (!found) throw data("Attachment not found.", { status: 404 });
  // The same file under another name (a link typed by hand): one address per file, so one cached copy.
  if (requestedFilename(url) !== found.filename) throw redirect(attachmentPath(params.workspace, found.id, found.filename), 301);
  const etag = `"${found.id}"`;
  const headers = new Headers({
    "Content-Type": found.content_type,
    "Content-Disposition": contentDisposition(found.filename, { type: isPreviewable({ contentType: found.content_type, width: found.width, height: found.height }) ? "inline" : "attachment" }),
    // Only text is worth compressing; images, archives and the rest are compressed already, or noise.
    "Cache-Control": `private, max-age=31536000, immutable${found.content_type.startsWith("text/") ? "" : ", no-transform"}`,
    ETag: etag,
  });
  if (request.headers.get("If-None-Match")?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(found.size));
  return new Response(contentStream(db, found), { headers });
}

/**
 * The file's name as its address spells it. Not `params.filename`: React Router turns a "%2F" left
 * in a decoded parameter into "/", so a file named "a%2Fb.txt" was redirected to its own address.
 */
function requestedFilename(url: URL): string {
  const segment = url.pathname.slice(url.pathname.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
