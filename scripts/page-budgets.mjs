// The page budgets of ARCHITECTURE rule 8 and issue 14, in one place: scripts/page-weight.mjs
// checks them in every `npm test` (gzip of each body), scripts/bench/page-weight.mjs reports them as
// Chromium receives the pages (compressed as sent).
export const KB = 1024;
/** HTML + CSS of the first screen: one round trip on a satellite link. */
export const CRITICAL_BUDGET = 14 * KB;
/**
 * JS, gzip. A page without a form ships none (its route's `handle` is STATIC_PAGE, so the root
 * leaves out the scripts): it is one request, its HTML. A page with a form carries the framework
 * (react-dom, react and Remix: 84 KB gzip for a bare one-route Remix page) and what the form uses,
 * at most 24 KB more (ARCHITECTURE rule 8, issue 25 item 2): Zod and the schemas stay on the server
 * (the browser checks the rules formRules derives from them), Conform's browser side is our
 * useForm, each intake step ships its own fields. Measured 24 Nov 2026 (docs/performance.md):
 * every form page 93-108 KB, the heaviest an intake step (107.7). It was 140 until then.
 */
export const JS_BUDGET = { page: 0, form: 108 * KB };
/** Pages whose forms appear only with a token or a session (a visit without one still loads their code). */
const FORM_ROUTES = new Set(["/order-status", "/dashboard", "/admin"]);
/** The one definition of a form page: it shows a form, or is one of the routes above, or is an admin page (the back office is an app). */
export const pageKind = (hasForm, pathname) =>
  hasForm || FORM_ROUTES.has(pathname) || pathname.startsWith("/admin/") ? "form" : "page";
/** The first-screen budget is for what visitors and customers open; the admin's tables are held to the JS budget only. */
export const hasCriticalBudget = (pathname) => pathname !== "/admin" && !pathname.startsWith("/admin/");
