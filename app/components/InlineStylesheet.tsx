import { createContext, useContext } from "react";
import { useNonce } from "./nonce";

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
 * The stylesheet inlined in the document head, allowed by the response's CSP
 * nonce (scripts/server.mjs). The browser renders it without JavaScript and
 * hydration keeps the server's text (React does not rewrite innerHTML it did
 * not create), so the client bundle never carries the CSS.
 */
export function InlineStylesheet() {
  const css = useContext(StylesheetContext) || clientCss;
  return (
    <style nonce={useNonce()} data-app-css="" dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />
  );
}
