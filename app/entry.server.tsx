import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
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
import { appContext } from "~/context/app-context.server";
import { encodeDocument } from "~/host/document-encoding.server";
import { createRenderTurns } from "~/host/render-turns.server";
import { RenderTurnsContext } from "~/components/render-turns";
import { NonceContext } from "~/security/nonce";

export const streamTimeout = 5_000;

/** The next turn of the event loop: what other requests have waiting runs first (decision record 027). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export default async function handleRequest(
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
  // The loaders' work (synchronous queries, on SQLite) and the render's are not one long turn.
  await nextTurn();

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <RenderErrorDigestContext value={services.renderErrorDigest}>
          {/* Long pages render their parts in turns, other requests answered in between (decision record 027). */}
          <RenderTurnsContext value={createRenderTurns()}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </RenderTurnsContext>
        </RenderErrorDigestContext>
      </NonceContext>,
      {
        nonce,
        // Never "outline" a large Suspense boundary that is ready (React's default past 12,800
        // bytes: its fallback first, its content later in a hidden <div> that a script swaps in):
        // without JavaScript that content would never show. The board's is (board.tsx).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          shellRendered = true;
        },
        // Every loader has finished before React renders (no page defers data), so a page is sent
        // whole, as one buffer, compressed in one go (decision record 012).
        onAllReady() {
          const chunks: Buffer[] = [];
          const whole = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
              encodeDocument(Buffer.concat(chunks), request.headers.get("accept-encoding")).then(({ body, encoding }) => {
                responseHeaders.set("Content-Type", "text/html; charset=utf-8");
                responseHeaders.append("Vary", "Accept-Encoding");
                if (encoding) responseHeaders.set("Content-Encoding", encoding);
                responseHeaders.set("Content-Length", String(body.length));
                // A view of the compressed bytes, not a copy of them.
                const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
                resolve(new Response(bytes, { headers: responseHeaders, status: responseStatusCode }));
              }, reject);
            },
          });
          // Written out on a turn of its own, not in the one that rendered the page's last part.
          nextTurn()
            .then(() => pipe(whole))
            .catch(reject);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell reject and reach handleError; these come later, while rendering the rest.
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
