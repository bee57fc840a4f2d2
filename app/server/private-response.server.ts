import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Which answers are private, derived from what each one reads rather than from a list of paths: an answer that
 * read a credential the request carried (the session, an e-mailed link's token cookie, the checkout cookie, a
 * flash) or a token in its address (a reset or confirmation link) is marked `no-store`; one that read cookies the
 * request did not carry is the same for every such visitor, and says `Vary: Cookie` so no cache hands it to a
 * browser that carries one. scripts/server.mjs runs each request inside `trackResponsePrivacy` and sets the
 * headers from what it recorded; outside a request (tests calling a loader) nothing is recorded.
 */
export type ResponsePrivacy = { readCookies: boolean; private: boolean };

const current = new AsyncLocalStorage<ResponsePrivacy>();

/** Runs `next` (the rest of one request) recording into `state`. Called by scripts/server.mjs. */
export function trackResponsePrivacy(state: ResponsePrivacy, next: () => void) {
  current.run(state, next);
}

function cookieNames(header: string | null): Set<string> {
  const names = new Set<string>();
  for (const pair of (header ?? "").split(";")) {
    const name = pair.split("=", 1)[0].trim();
    if (name) names.add(name);
  }
  return names;
}

/** The answer reads cookie `name`: private if the request carried it, else it varies by cookie. */
export function noteCookieRead(name: string, request: Request) {
  const state = current.getStore();
  if (!state) return;
  state.readCookies = true;
  if (cookieNames(request.headers.get("Cookie")).has(name)) state.private = true;
}

/** The answer reads a secret of its own (a token in the address): never stored. */
export function notePrivateRead() {
  const state = current.getStore();
  if (state) state.private = true;
}
