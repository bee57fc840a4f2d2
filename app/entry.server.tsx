import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream, renderToStaticMarkup } from "react-dom/server";
import { StylesheetContext } from "~/components/InlineStylesheet";
import { NonceContext } from "~/components/nonce";
import { ServiceUnavailable } from "~/components/ServiceUnavailable";
import { isDatabaseUnavailable, noteDatabaseUnavailable } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { errorMessage, log } from "~/server/log.server";
import { startOutboxWorker } from "~/server/mail/outbox.server";
import { stylesheetText } from "~/server/stylesheet.server";
import styles from "~/styles/app.css";

// scripts/server.mjs runs each request inside this, and marks private what the answer read.
export { trackResponsePrivacy } from "~/server/private-response.server";

// Fail at start, naming every missing or bad variable, rather than on the first request.
getEnv();
startOutboxWorker();

const ABORT_DELAY = 5_000;

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
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Cleared once the document is out (or the render failed): a pending timer would keep the
    // render, and with it the request and the whole page, reachable for ABORT_DELAY after the answer.
    const abortTimer = setTimeout(() => abort(), ABORT_DELAY);
    // Wait for everything: pages are small, and a complete document is what works without JavaScript.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <StylesheetContext.Provider value={stylesheetText(styles)}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </StylesheetContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          // The document is complete, so it leaves as one buffer: one write and one gzip pass rather
          // than one per React chunk (zlib took a quarter of the CPU serving home; docs/performance.md).
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              clearTimeout(abortTimer);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
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
      reason: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  log("error", "request.failed", {
    method: request.method,
    path: url.pathname,
    reason: errorMessage(error),
    stack: getEnv().NODE_ENV === "production" ? undefined : error instanceof Error ? error.stack : undefined,
  });
};
