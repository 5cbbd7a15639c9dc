import { useContext, type ReactNode } from "react";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { RenderErrorDigestContext, renderErrorDigestMetaName } from "~/errors/render-error-digest";
import { useNonce } from "~/security/nonce";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: Route.MetaFunction = () => [{ title: "Cairn" }];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const renderErrorDigest = useContext(RenderErrorDigestContext);
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
          <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
            <Link to="/" className="text-lg font-semibold tracking-tight">
              Cairn
            </Link>
          </nav>
        </header>
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

export default function App() {
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorBoundary;
