import { readFileSync } from "node:fs";

const cache = new Map<string, string>();

/**
 * The text of a built stylesheet (`/build/_assets/app-HASH.css`), read once, so
 * the document can carry it inline: first paint on a satellite link then waits
 * for no second round trip (ARCHITECTURE rule 8). This module is bundled into
 * build/index.js, so the public folder is one level up from it. If the file
 * cannot be read, the document imports it instead, which still works.
 */
export function stylesheetText(href: string): string {
  let css = cache.get(href);
  if (css === undefined) {
    try {
      css = readFileSync(new URL(`../public${href}`, import.meta.url), "utf8").replace(/<\/style/gi, "<\\/style");
    } catch {
      css = `@import url("${href}");`;
    }
    cache.set(href, css);
  }
  return css;
}
