import { data } from "react-router";
import { attachmentMarkdown, attachmentPath, isPreviewable } from "~/attachments/attachments";
import { uploadUnclaimed } from "~/attachments/attachments.server";
import { uploadedFilesField } from "~/attachments/forms.server";
import { receiveUploads } from "~/attachments/upload-receiver.server";
import { requireWorkspace } from "~/auth/authorization.server";
import { appContext } from "~/context/app-context.server";
import { parseForm } from "~/forms/parse-form.server";
import { withTemporaryFiles } from "~/forms/temporary-files.server";
import { z } from "zod";
import type { Route } from "./+types/index";

const uploadSchema = z.object({ file: uploadedFilesField.pipe(z.array(z.instanceof(File)).length(1, "Send one file.")) });

/** The file is received into a temporary file, removed once it is answered. */
export const middleware: Route.MiddlewareFunction[] = [withTemporaryFiles];

/** Only a file dropped or pasted into a text box is posted here; there is nothing to show. */
export function loader() {
  throw data("Page not found.", { status: 404 });
}

/**
 * A file dropped or pasted into a text box, with JavaScript (FileDropZone, app/components/attachments.tsx):
 * kept at once, for the form it was dropped into (claimAttachments), and answered as JSON with the
 * Markdown that shows it. Its refusals are JSON too: a file refused is `{ "error": message }`; who
 * may not upload (403, 404) or a body that is no form (400, 415) is the message itself, a JSON string.
 */
export async function action(args: Route.ActionArgs) {
  const { user, workspace } = await requireWorkspace(args, "issues:write");
  const services = args.context.get(appContext);
  const uploads = receiveUploads(args.context, workspace.id);
  const submission = await parseForm(args.request, uploadSchema, { files: uploads });
  if (submission.status !== "success") return Response.json({ error: Object.values(submission.error ?? {}).flat()[0] ?? "Send one file." }, { status: 400 });
  if (uploads.refused) return Response.json({ error: uploads.refused.message }, { status: uploads.refused.status });
  const uploaded = await uploadUnclaimed(services, { workspaceId: workspace.id, uploaderId: user.id, file: submission.value.file[0]!, limits: services.config.attachments, now: new Date() });
  if (!uploaded.ok) return Response.json({ error: uploaded.message }, { status: uploaded.status });
  const { id, filename, contentType, size } = uploaded.attachment;
  const url = attachmentPath(workspace.slug, id, filename);
  return Response.json({ id, filename, contentType, size, url, markdown: attachmentMarkdown({ url, filename, image: isPreviewable(uploaded.attachment) }) }, { status: 201 });
}
