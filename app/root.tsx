import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { ConnectionNotice } from "~/components/connection";
import { Flashes } from "~/components/Flashes";
import { useFocusAfterNavigation } from "~/components/focus";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { InlineStylesheet } from "~/components/InlineStylesheet";
import { useNonce } from "~/components/nonce";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { pageWantsScripts } from "~/components/static-page";
import { sydneyYear } from "~/server/dates.server";
import { takeFlashes } from "~/server/flash.server";
import { newFormKey } from "~/server/form-keys.server";

// The stylesheet is not linked: entry.server inlines it (components/InlineStylesheet.tsx).
export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = () => [
  { title: "24-Hour Website | Northern Rivers Web Design" },
  { name: "description", content: "A professional small-business website for $300, first draft in 24 hours." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { flashes, headers } = await takeFlashes(request);
  // A fresh key per page (components/forms.tsx FormKey): a resend of a post whose answer was lost changes nothing twice.
  return data({ flashes, year: sydneyYear(), formKey: newFormKey() }, { headers });
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<typeof loader>("root");
  const scripts = pageWantsScripts(useMatches());
  return (
    <html lang="en-AU">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <InlineStylesheet />
        <Links />
      </head>
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <SiteHeader />
        <main id="main" tabIndex={-1}>
          <Flashes flashes={root?.flashes ?? []} />
          <ConnectionNotice />
          {children}
        </main>
        <SiteFooter year={root?.year ?? new Date().getFullYear()} />
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  useFocusAfterNavigation();
  return <Outlet />;
}

export function NotFound() {
  return (
    <section className="hero not-found">
      <div className="wrap">
        <h1>Oops! Page not found</h1>
        <p className="lead">The page you were looking for isn't here. It may have moved, or the link may be wrong.</p>
        <Link to="/" className="button button-primary">
          Return to Home
        </Link>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <NotFound /> }} />;
}
