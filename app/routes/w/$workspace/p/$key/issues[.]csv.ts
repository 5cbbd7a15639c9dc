import { data } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { reportUnexpectedError } from "~/errors/report.server";
import { appContext } from "~/context/app-context.server";
import { parseIssueFilters, refusedQueryMessage } from "~/issues/issue-list.server";
import { issuesCsvFileName, streamIssuesCsv } from "~/issues/issues-csv.server";
import type { Route } from "./+types/issues[.]csv";

const routeId = "routes/w/$workspace/p/$key/issues[.]csv";

/**
 * The issue list as CSV (docs/product.md, Screens): the same filters and order as the list's URL, every page of it.
 * Anyone who may read the project may export it (docs/product.md, Roles, viewers too).
 */
export async function loader(args: Route.LoaderArgs) {
  const { user, project } = await requireProject(args);
  const services = args.context.get(appContext);
  const { request } = args;
  const filters = parseIssueFilters(args.url.searchParams);
  if (filters.refusedQuery) throw data(refusedQueryMessage(filters.refusedQuery), { status: 400 });
  const body = await streamIssuesCsv(services.db, {
    project,
    filters,
    meId: user.id,
    signal: request.signal,
    // Once the download has started its status is sent: an error can only cut it short, and be reported.
    onError: (error) => reportUnexpectedError(error, { services, request, route: routeId, userId: user.id }),
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${issuesCsvFileName(project.key)}"`,
      "Cache-Control": "no-store",
    },
  });
}
