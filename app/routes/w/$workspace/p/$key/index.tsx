import { redirect } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import type { Route } from "./+types/index";

/** A project opens on its issues. */
export async function loader(args: Route.LoaderArgs) {
  const { workspace, project } = await requireProject(args);
  return redirect(`/w/${workspace.slug}/p/${project.key}/issues`);
}
