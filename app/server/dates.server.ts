/**
 * The dates the root loader reads, from the one formatting module (domain/dates.ts). Imported by
 * root.tsx through this `.server` module so that the browser build leaves domain/dates.ts out of
 * every page: root.tsx importing it directly put its chunk on every page, loader-only or not.
 */
export { sydneyYear } from "~/domain/dates";
