import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { StylesheetContext } from "~/components/InlineStylesheet";
import { NonceContext } from "~/components/nonce";
import { getEnv } from "~/server/env.server";
import { errorMessage, log } from "~/server/log.server";
import { startOutboxWorker } from "~/server/mail/outbox.server";
import { stylesheetText } from "~/server/stylesheet.server";
import styles from "~/styles/app.css";

// Fail at start, naming every missing or bad variable, rather than on the first request.
getEnv();
startOutboxWorker();

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
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
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log("error", "render.failed", { reason: errorMessage(error) });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const url = new URL(request.url);
  log("error", "request.failed", {
    method: request.method,
    path: url.pathname,
    reason: errorMessage(error),
    stack: getEnv().NODE_ENV === "production" ? undefined : error instanceof Error ? error.stack : undefined,
  });
};
