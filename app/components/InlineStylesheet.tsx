import { createContext, useContext } from "react";
import { useNonce } from "./nonce";

/** The app's CSS text for this response (set by entry.server; the browser already has it in the page). */
export const StylesheetContext = createContext<string>("");

/**
 * The stylesheet inlined in the document head, allowed by the response's CSP
 * nonce (scripts/server.mjs). The browser renders it without JavaScript and
 * hydration keeps the server's text (React does not rewrite innerHTML it did
 * not create), so the client bundle never carries the CSS.
 */
export function InlineStylesheet() {
  const css = useContext(StylesheetContext);
  return <style nonce={useNonce()} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}
