import { createContext, useContext } from "react";

/** The app's CSS text for this response (set by entry.server; the browser already has it in the page). */
export const StylesheetContext = createContext<string>("");

/**
 * In the browser: the text the server inlined, read once before hydration. When
 * an error screen re-renders the document shell, its new <style> gets the same
 * text, so the error screen keeps the site's look.
 */
const clientCss =
  typeof document === "undefined" ? "" : (document.querySelector("style[data-app-css]")?.textContent ?? "");

/**
 * The stylesheet inlined in the document head, allowed by its hash in the CSP
 * (STYLESHEET_CSP_SOURCE in entry.server, sent by scripts/server.mjs): the same in
 * every copy of a page, so a page kept in a cache needs no per-request nonce. The
 * browser renders it without JavaScript and hydration keeps the server's text (React
 * does not rewrite innerHTML it did not create), so the client bundle never carries the CSS.
 */
export function InlineStylesheet() {
  const css = useContext(StylesheetContext) || clientCss;
  return <style data-app-css="" dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}
