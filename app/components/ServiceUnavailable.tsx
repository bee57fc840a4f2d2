import { BUSINESS } from "~/content/site";

/**
 * The whole document sent when the database cannot be reached (503): a plain
 * page with no scripts, so it needs nothing else from the server. Rendered by
 * entry.server.tsx in place of the route's error screen.
 */
export function ServiceUnavailable({ stylesheet }: { stylesheet: string }) {
  return (
    <html lang="en-AU">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Back in a minute | 24-Hour Website</title>
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body>
        <main id="main">
          <section className="hero">
            <div className="wrap">
              <h1>Unexpected Application Error!</h1>
              <p className="lead">503 Service Unavailable</p>
              <p>
                We can't reach our database for a moment, so this page can't load right now. Nothing you have already
                sent us is lost. Please try again in a minute.
              </p>
              <p>
                <a href="/">Return to Home</a>, or call us on <a href={BUSINESS.phoneHref}>{BUSINESS.phone}</a>.
              </p>
            </div>
          </section>
        </main>
      </body>
    </html>
  );
}
