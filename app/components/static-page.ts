import type { UIMatch } from "@remix-run/react";

/**
 * The `handle` of a route whose page has nothing interactive (ARCHITECTURE rule 8):
 * `export const handle = STATIC_PAGE;`. The root then leaves out `<Scripts/>` and
 * `<ScrollRestoration/>`, so the page is its HTML alone, one request; every control
 * on it is a link or a plain form, and leaving it is a full page load.
 * `scripts/page-weight.mjs` holds such pages to 0 bytes of script.
 */
export const STATIC_PAGE = { scripts: false } as const;

/**
 * The `handle` of a form page whose loader reads nothing but the request's cookies and
 * address (no database, no clock beyond the year): `export const handle = SAME_FOR_ANYONE;`.
 * Asked for with no cookie and no query, it is the same for every visitor but for two
 * values made per copy, the script nonce and the form key, so scripts/page-cache.mjs keeps
 * its first such render and serves later cookie-less visitors a copy with fresh ones
 * (entry.server.tsx says which key it drew). Any other visit is rendered for its request.
 */
export const SAME_FOR_ANYONE = { sameForAnyone: true } as const;

const handlesSay = (handles: unknown[], key: string, value: boolean) =>
  handles.some((handle) => (handle as Record<string, unknown> | undefined)?.[key] === value);

/** True when one of the page's routes has the STATIC_PAGE handle. */
export const isStaticPage = (handles: unknown[]): boolean => handlesSay(handles, "scripts", false);

/** True when one of the page's routes has the SAME_FOR_ANYONE handle. */
export const isSameForAnyone = (handles: unknown[]): boolean => handlesSay(handles, "sameForAnyone", true);

/** False when a route of the page says it needs no script (Remix's documented way: a route handle read by the root). */
export function pageWantsScripts(matches: UIMatch[]): boolean {
  return !isStaticPage(matches.map((match) => match.handle));
}
