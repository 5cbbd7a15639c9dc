import { useEffect } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useRenderErrorDigest } from "~/errors/render-error-digest";
import { reportBoundaryError } from "~/monitoring/reporting-starter.client";

export const unexpectedErrorMessage = "Application error: something went wrong on our side.";

type ErrorView = { title: string; message: string; digest?: string };

const messagesByStatus: Record<number, ErrorView> = {
  400: { title: "Bad request", message: "That request was not valid." },
  403: { title: "Forbidden", message: "You don't have permission to do that." },
  404: { title: "Not found", message: "Page not found." },
  405: { title: "Not allowed", message: "That cannot be done here." },
  413: { title: "Too large", message: "That is too large." },
  429: { title: "Too many requests", message: "Too many attempts. Try again later." },
  503: { title: "Unavailable", message: "Cairn is unavailable right now. Try again shortly." },
};

function describe(error: unknown, renderDigest: string | undefined): ErrorView {
  if (isRouteErrorResponse(error)) {
    const digest = (error.data as { digest?: unknown } | null)?.digest;
    if (error.status >= 500 && typeof digest === "string") {
      return { title: "Something went wrong", message: unexpectedErrorMessage, digest };
    }
    const known = messagesByStatus[error.status];
    // Our own refusals say what happened; React Router's internal ones (405 …) describe its internals.
    const internal = (error as { internal?: boolean }).internal === true;
    const message = !internal && typeof error.data === "string" && error.data ? error.data : known?.message;
    if (known || (message && error.status < 500)) {
      return { title: known?.title ?? error.statusText, message: message ?? error.statusText };
    }
  }
  return { title: "Something went wrong", message: unexpectedErrorMessage, digest: renderDigest };
}

/**
 * The error boundary of every route: known errors (404, 403, …) say what happened; anything else
 * says only that it went wrong, with the server's digest when there is one — never the error's
 * message or stack. Where the reader is the operator, `digestHref` links the digest to its details.
 */
export function RouteErrorBoundary({ digestHref }: { digestHref?: (digest: string) => string }) {
  const error = useRouteError();
  // Browser monitoring (docs/product.md, Monitoring): effects run only in the browser, where the reporter exists.
  useEffect(() => reportBoundaryError(error, window.location.pathname), [error]);
  const view = describe(error, useRenderErrorDigest());
  return (
    <section role="alert" aria-labelledby="error-title" className="mx-auto max-w-xl py-12">
      <h1 id="error-title" className="text-2xl font-semibold">
        {view.title}
      </h1>
      <p className="mt-3 text-zinc-700 dark:text-zinc-300">{view.message}</p>
      {view.digest ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
          Digest: <code className="font-mono">{view.digest}</code>
          {digestHref ? (
            <>
              {" · "}
              <Link to={digestHref(view.digest)} className="text-indigo-700 underline dark:text-indigo-300">
                See this error
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
      <p className="mt-6">
        <Link to="/" className="text-indigo-700 underline dark:text-indigo-300">
          Go to the start page
        </Link>
      </p>
    </section>
  );
}

/**
 * The boundary of a layout that draws the app shell (workspace, account settings, admin): when its
 * own loader refuses (a workspace one is not a member of is a 404), there is no sidebar to draw, so
 * the page is the message in a main landmark, with its way back.
 */
export function ShellErrorBoundary() {
  return (
    <main id="main" className="px-4">
      <RouteErrorBoundary />
    </main>
  );
}
