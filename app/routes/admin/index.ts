import { redirect } from "react-router";
import { requireInstanceAdmin } from "~/auth/authorization.server";
import type { Route } from "./+types/index";

/** Monitoring is the first admin screen. */
export async function loader(args: Route.LoaderArgs) {
  requireInstanceAdmin(args);
  return redirect("/admin/monitoring");
}
