import { databaseAnswers } from "~/db/health.server";
import { appContext } from "~/context/app-context.server";
import type { Route } from "./+types/readyz";

/** Readiness: 200 once migrated and while the database answers; 503 while starting or draining. */
export async function loader({ context }: Route.LoaderArgs) {
  const { lifecycle, db } = context.get(appContext);
  const status =
    lifecycle.state !== "ready" ? lifecycle.state : (await databaseAnswers(db)) ? "ready" : "database unreachable";
  return Response.json({ status }, { status: status === "ready" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
