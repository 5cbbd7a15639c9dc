import { apiRoute, methodNotAllowed } from "~/api/api-route.server";
import type { Route } from "./+types/user";

/** GET /api/v1/user: who the token acts as. */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ caller }) => {
  const { id, name, handle, email, timeZone } = caller.user;
  return { id, name, handle, email, timeZone };
});

export const action = apiRoute<Route.ActionArgs>("read", async () => methodNotAllowed(["GET"]));
