import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream, renderToStaticMarkup } from "react-dom/server";
import { StylesheetContext } from "~/components/InlineStylesheet";
import { NonceContext } from "~/components/nonce";
import { isSameForAnyone, isStaticPage } from "~/components/static-page";
import { ServiceUnavailable } from "~/components/ServiceUnavailable";
import { startOrderDigest } from "~/server/admin/order-digest.server";
import { startAlertWatch } from "~/server/alerts.server";
import { isDatabaseUnavailable, noteDatabaseUnavailable, startDb } from "~/server/db.server";
import { getEnv, serverSettings } from "~/server/env.server";
import { errorMessage, log } from "~/server/log.server";
import { startOutboxWorker } from "~/server/mail/outbox.server";
import { stylesheetText } from "~/server/stylesheet.server";
import styles from "~/styles/app.css";

// scripts/server.mjs runs each request inside this, and marks private what the answer read.
export { trackResponsePrivacy } from "~/server/private-response.server";
// scripts/server.mjs migrates the stored documents before it listens.
export { migrateOnStart } from "~/server/migrations.server";
/** What scripts/page-cache.mjs draws a kept form page's copies' keys with: the form keys' one home. */
export { newFormKey } from "~/server/form-keys.server";

// Fail at start, naming every missing or bad variable, rather than on the first request.
getEnv();
/** How scripts/server.mjs listens, which proxies it believes and which origin posts may come from. */
export const SERVER_SETTINGS = serverSettings(getEnv());
// The one database connection, opened here; server functions use it without connecting.
startDb();
startOutboxWorker();
startOrderDigest();
startAlertWatch();

const ABORT_DELAY = 5_000;

const stylesheet = stylesheetText(styles);
/** The CSP source that admits the inline stylesheet (scripts/server.mjs sends it): its hash, one per build. */
export const STYLESHEET_CSP_SOURCE = `'sha256-${createHash("sha256").update(stylesheet).digest("base64")}'`;

/**
 * A page that is the same for every visitor who carries nothing: a STATIC_PAGE route
 * (no form, no script), asked for with no cookie (so no session, link token, checkout
 * or flash cookie was there to read) and no query, answered 200 without setting a
 * cookie. scripts/server.mjs keeps such pages in memory, and a CDN may hold them
 * (s-maxage) until the next deploy purges it; a browser rechecks after 5 minutes.
 * Vary: Cookie keeps a shared cache from answering a visitor who does carry a cookie.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=300, s-maxage=86400";
/**
 * Names, to scripts/page-cache.mjs, the form key drawn for a SAME_FOR_ANYONE page rendered for a visitor who
 * carries nothing: it keeps the page and gives each later such visitor a copy with a fresh key and nonce. The
 * header is taken off before the answer leaves the server.
 */
export const PER_COPY_KEY_HEADER = "X-Page-Form-Key";

/** The same for every visitor who carries nothing: no cookie (so no session, link token, checkout or flash was there to read), no query, a 200 that sets no cookie and chose no caching of its own. */
function carriesNothing(request: Request, status: number, headers: Headers) {
  if ((request.method !== "GET" && request.method !== "HEAD") || status !== 200) return false;
  if (request.headers.has("Cookie") || headers.has("Set-Cookie") || new URL(request.url).search) return false;
  // A route that chose its own caching keeps it (an unknown showcase slug: no-store).
  return !headers.has("Cache-Control");
}
const routeHandles = (context: EntryContext) =>
  context.staticHandlerContext.matches.map((m) => context.routeModules[m.route.id]?.handle);

/**
 * Requests that failed because the database could not be reached (marked by
 * handleError, which Remix calls first). They are answered 503 with a plain
 * page that says so, never a 500 or a stack, and the app recovers by itself
 * once the database answers again (mongoose reconnects).
 */
const databaseDown = new WeakSet<Request>();
const RETRY_AFTER_SECONDS = "30";

function serviceUnavailable(headers: Headers) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Retry-After", RETRY_AFTER_SECONDS);
  headers.set("Cache-Control", "no-store");
  return new Response(`<!DOCTYPE html>${renderToStaticMarkup(<ServiceUnavailable stylesheet={styles} />)}`, {
    status: 503,
    headers,
  });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (responseStatusCode >= 500 && databaseDown.has(request)) return serviceUnavailable(responseHeaders);
  const sameForAnyone = carriesNothing(request, responseStatusCode, responseHeaders);
  const publicPage = sameForAnyone && isStaticPage(routeHandles(remixContext));
  if (publicPage) {
    responseHeaders.set("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
    responseHeaders.append("Vary", "Cookie");
  } else if (sameForAnyone && isSameForAnyone(routeHandles(remixContext))) {
    const formKey = (remixContext.staticHandlerContext.loaderData.root as { formKey?: unknown } | undefined)?.formKey;
    if (typeof formKey === "string") responseHeaders.set(PER_COPY_KEY_HEADER, formKey);
  }
  // Any other answer is rendered for its request; scripts/server.mjs marks it no-store when it read
  // a credential the request carried (a flash, the session, a link's token), as for every page.
  // A page kept for everyone carries no script, so no nonce: one copy serves every visitor.
  const nonce = !publicPage && typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Cleared once the document is out (or the render failed): a pending timer would keep the
    // render, and with it the request and the whole page, reachable for ABORT_DELAY after the answer.
    const abortTimer = setTimeout(() => abort(), ABORT_DELAY);
    // Wait for everything: pages are small, and a complete document is what works without JavaScript.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <StylesheetContext.Provider value={stylesheet}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </StylesheetContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          // The document is complete, so it leaves as one buffer: one write and one gzip pass rather
          // than one per React chunk (zlib took a quarter of the CPU serving home; docs/performance-log.md).
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              clearTimeout(abortTimer);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              const html = scriptsAfterFirstPaint(Buffer.concat(chunks).toString("utf8"));
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log("error", "render.failed", { reason: errorMessage(error) });
        },
      },
    );
  });
}

/**
 * The page's scripts are fetched at low priority (`fetchpriority="low"` on Remix's modulepreload
 * links): nothing on a page's first screen needs them (they are deferred modules; every form works
 * without them), so the browser should fetch them after what that screen needs, not beside it.
 * Chromium gives modulepreload high priority, and Lighthouse's simulated mobile load counts a high-
 * priority script that arrived before the page first painted (on loopback, most of them) as holding
 * that paint back: the intake step's 107 KB of JavaScript put its simulated first paint at 2.0 s
 * against about 0.9 s without (docs/performance-log.md, Round 5). Remix's <Scripts> takes no attribute
 * for its links, so they are marked here, in the one buffer the document leaves as.
 */
function scriptsAfterFirstPaint(html: string) {
  return html.replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
}

/** Data requests (navigations with JavaScript on) say 503 too; the route's error screen shows. */
export function handleDataRequest(response: Response, { request }: { request: Request }) {
  if (response.status >= 500 && databaseDown.has(request)) {
    const headers = new Headers(response.headers);
    headers.set("Retry-After", RETRY_AFTER_SECONDS);
    return new Response(response.body, { status: 503, headers });
  }
  return response;
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const url = new URL(request.url);
  if (isDatabaseUnavailable(error)) {
    databaseDown.add(request);
    noteDatabaseUnavailable();
    log("warn", "db.unavailable", {
      method: request.method,
      path: url.pathname,
      reason: errorMessage(error),
    });
    return;
  }
  // A client's bad request (a `?_data=` naming no route of the page, a method the route lacks) is answered 4xx
  // and is not a failure of ours: a line at info level, so no visitor can write error lines.
  if (isRouteErrorResponse(error) && error.status < 500) {
    log("info", "request.refused", { method: request.method, path: url.pathname, status: error.status });
    return;
  }
  log("error", "request.failed", {
    method: request.method,
    path: url.pathname,
    reason: errorMessage(error),
    stack: getEnv().NODE_ENV === "production" ? undefined : error instanceof Error ? error.stack : undefined,
  });
};
