import { useContext, type ReactNode } from "react";
import { data, Form, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import { currentUserContext, sessionMiddleware } from "~/auth/current-user.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FlashMessage } from "~/components/flash-message";
import { NavigationProgress } from "~/components/navigation-progress";
import { takeFlash } from "~/flash/flash.server";
import { appContext } from "~/host/app-context.server";
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
      user: user && { name: user.name, email: user.email, isInstanceAdmin: user.isInstanceAdmin },
      flash,
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: Route.MetaFunction = () => [{ title: "Cairn" }];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const renderErrorDigest = useContext(RenderErrorDigestContext);
  const rootData = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {renderErrorDigest ? <meta name={renderErrorDigestMetaName} content={renderErrorDigest} /> : null}
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-white text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-zinc-900"
        >
          Skip to content
        </a>
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
            <Link to="/" className="text-lg font-semibold tracking-tight">
              Cairn
            </Link>
            <AccountMenu />
          </nav>
        </header>
        <NavigationProgress />
        <FlashMessage flash={rootData?.flash ?? null} />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
          {children}
        </main>
        <footer className="border-t border-zinc-200 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          <p className="mx-auto max-w-6xl px-4 py-4">Cairn — self-hosted issue tracking for teams.</p>
        </footer>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function AccountMenu() {
  const user = useRouteLoaderData<typeof loader>("root")?.user;
  const linkClass = "rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-900";
  if (!user) {
    return (
      <div className="flex items-center gap-2 text-sm">
        <Link to="/login" className={linkClass}>
          Sign in
        </Link>
        <Link to="/signup" className={linkClass}>
          Create account
        </Link>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-2 text-sm">
      {user.isInstanceAdmin ? (
        <Link to="/admin" className={linkClass}>
          Admin
        </Link>
      ) : null}
      <Link to="/settings" className={linkClass} title={user.email}>
        {user.name}
      </Link>
      <Form method="post" action="/logout">
        <button type="submit" className={linkClass}>
          Sign out
        </button>
      </Form>
    </div>
  );
}

export default function App() {
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorBoundary;
