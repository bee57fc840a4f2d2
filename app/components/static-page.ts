import type { UIMatch } from "@remix-run/react";

/**
 * The `handle` of a route whose page has nothing interactive (ARCHITECTURE rule 8):
 * `export const handle = STATIC_PAGE;`. The root then leaves out `<Scripts/>` and
 * `<ScrollRestoration/>`, so the page is its HTML alone, one request; every control
 * on it is a link or a plain form, and leaving it is a full page load.
 * `scripts/page-weight.mjs` holds such pages to 0 bytes of script.
 */
export const STATIC_PAGE = { scripts: false } as const;

/** True when one of the page's routes has the STATIC_PAGE handle. */
export function isStaticPage(handles: unknown[]): boolean {
  return handles.some((handle) => (handle as { scripts?: boolean } | undefined)?.scripts === false);
}

/** False when a route of the page says it needs no script (Remix's documented way: a route handle read by the root). */
export function pageWantsScripts(matches: UIMatch[]): boolean {
  return !isStaticPage(matches.map((match) => match.handle));
}
