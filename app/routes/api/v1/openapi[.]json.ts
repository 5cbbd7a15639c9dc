import { baseUrlOf } from "~/api/access.server";
import { apiErrorResponse } from "~/api/api-errors.server";
import { openApiDocument } from "~/api/openapi.server";
import { appContext } from "~/context/app-context.server";
import type { Route } from "./+types/openapi[.]json";

/** GET /api/v1/openapi.json: the API's OpenAPI 3.1 document, for anyone (it describes, it holds no data). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  return Response.json(openApiDocument(baseUrlOf(services, new URL(request.url)), services.config.apiRatePerMinute), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}

export async function action() {
  return apiErrorResponse("method_not_allowed", "Use GET here.", { headers: { Allow: "GET" } });
}
