import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { currentUserContext } from "~/auth/current-user.server";
import { RenderErrorDigestContext } from "~/errors/render-error-digest";
import { reportUnexpectedError } from "~/errors/report.server";
import { appContext } from "~/host/app-context.server";
import { NonceContext } from "~/security/nonce";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const services = loadContext.get(appContext);
  const nonce = services.cspNonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      userAgent && isbot(userAgent) ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <RenderErrorDigestContext value={services.renderErrorDigest}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </RenderErrorDigestContext>
      </NonceContext>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell reject and reach handleError; these come later, while streaming.
          if (shellRendered && !request.signal.aborted) {
            reportUnexpectedError(error, {
              services,
              request,
              route: new URL(request.url).pathname,
              userId: loadContext.get(currentUserContext)?.id,
            });
          }
        },
      },
    );
  });
}

/**
 * React Router calls this for errors our route guards did not turn into digests: errors while
 * rendering the document, and anything raised outside loaders and actions.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const services = (context as RouterContextProvider).get(appContext);
  // React Router's own refusals (a POST where no route has an action: 405) are the client's doing.
  if (isRouteErrorResponse(error) && error.status < 500) {
    services.logger.info({ status: error.status }, error.statusText);
    return;
  }
  const { digest } = reportUnexpectedError(error, {
    services,
    request,
    route: new URL(request.url).pathname,
    userId: (context as RouterContextProvider).get(currentUserContext)?.id,
  });
  services.renderErrorDigest = digest;
};
