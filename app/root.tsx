import { useContext, type ReactNode } from "react";
import { data, Form, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import { currentUserContext, sessionMiddleware } from "~/auth/current-user.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { TimeZoneReporter } from "~/components/time-zone-reporter";
import { FlashMessage } from "~/components/flash-message";
import { NavigationProgress } from "~/components/navigation-progress";
import { takeFlash } from "~/flash/flash.server";
import { appContext } from "~/context/app-context.server";
import { RenderErrorDigestContext, renderErrorDigestMetaName } from "~/errors/render-error-digest";
import { useNonce } from "~/security/nonce";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";

export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(currentUserContext);
  const { flash, clear } = await takeFlash(context.get(appContext).sessionSecret, request);
  return data(
    {
      user: user && { id: user.id, name: user.name, email: user.email, isInstanceAdmin: user.isInstanceAdmin, timeZone: user.timeZone },
      // One clock per page, so that relative times read the same on the server and in the browser.
      clock: { now: new Date().toISOString(), timeZone: user?.timeZone ?? "UTC" },
      flash,
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: Route.MetaFunction = () => pageTitle();

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const renderErrorDigest = useContext(RenderErrorDigestContext);
  // Signed-in layouts draw their own app shell (sidebar, content header); the rest is a centred page.
  const appShell = useMatches().some((match) => (match.handle as { appShell?: boolean } | undefined)?.appShell);
  return (
    // The head script adds `js` to this element before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* DESIGN.md §1, principle 4: controls only for browsers without JavaScript hide before the first paint. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `document.documentElement.classList.add("js")` }} />
        {renderErrorDigest ? <meta name={renderErrorDigestMetaName} content={renderErrorDigest} /> : null}
        <Meta />
        <Links />
      </head>
      <body className="bg-white text-sm text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <NavigationProgress />
        {appShell ? children : <PublicFrame>{children}</PublicFrame>}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The signed-out pages (landing, sign in, sign up, invitation): a centred column under a small header. */
function PublicFrame({ children }: { children: ReactNode }) {
  const user = useRouteLoaderData<typeof loader>("root")?.user;
  const linkClass = "rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-900";
  return (
    <div className="flex min-h-dvh flex-col text-base">
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <nav aria-label="Main" className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <Link to="/" className="text-lg font-semibold tracking-tight">
            Cairn
          </Link>
          <div className="flex items-center gap-2 text-sm">
            {user ? (
              <>
                <Link to="/settings" className={linkClass} title={user.email}>
                  {user.name}
                </Link>
                <Form method="post" action="/logout">
                  <button type="submit" className={linkClass}>
                    Sign out
                  </button>
                </Form>
              </>
            ) : (
              <>
                <Link to="/login" className={linkClass}>
                  Sign in
                </Link>
                <Link to="/signup" className={linkClass}>
                  Create account
                </Link>
              </>
            )}
          </div>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">
        <FlashMessage />
        {children}
      </main>
      <footer className="border-t border-zinc-200 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
        <p className="mx-auto max-w-5xl px-4 py-4">Cairn — self-hosted issue tracking for teams.</p>
      </footer>
    </div>
  );
}

export default function App() {
  const user = useRouteLoaderData<typeof loader>("root")?.user;
  return (
    <>
      {/* A new account takes its time zone from the browser (DESIGN.md §3, Everywhere). */}
      {user ? <TimeZoneReporter timeZone={user.timeZone} /> : null}
      <Outlet />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
