// The page budgets of ARCHITECTURE rule 8, in one place: scripts/page-weight.mjs checks them in every
// `npm test`, scripts/bench/page-weight.mjs reports them as Chromium loads the pages. Both count what
// Chromium receives: brotli, which the server sends whenever a browser accepts it (scripts/encoding.mjs).
export const KB = 1024;
/** HTML + CSS of the first screen: one round trip on a satellite link. */
export const CRITICAL_BUDGET = 14 * KB;
/**
 * JS, brotli as sent (an intake step counts the modules of the steps before and after it, which it
 * preloads once shown). A page without a form ships none (its route's `handle` is STATIC_PAGE, so the root
 * leaves out the scripts): it is one request, its HTML. A page with a form carries the framework
 * (react-dom, react and Remix: 73 KB brotli, 84 KB gzip, for a bare one-route Remix page) and what the
 * form uses, at most 24 KB more (ARCHITECTURE rule 8): Zod and the schemas stay on the server
 * (the browser checks the rules formRules derives from them), Conform's browser side is our
 * useForm, each intake step ships its own fields. Measured 24 Nov 2026 in gzip: every form page 93-108 KB,
 * the heaviest an intake step (107.7), against 108. 27 Nov 2026 in brotli, neighbours counted: 81.6-95.7 KB
 * (step 4), against 97 (the same 24 KB over the framework, counted as received). The same day step 4's
 * upload form keys (one per file, so a lost answer's resend stores it once) took steps 4 and 5 to 97.2 and 97.1;
 * moving the upload's sending code (with its resumable parts) into a module step 4
 * fetches only when a file box is touched brought steps 1-14 94.3-96.2 KB, against 97 again.
 */
export const JS_BUDGET = { page: 0, form: 97 * KB };
/** Pages whose forms appear only with a token or a session (a visit without one still loads their code). */
const FORM_ROUTES = new Set(["/order-status", "/dashboard", "/admin"]);
/** The one definition of a form page: it shows a form, or is one of the routes above, or is an admin page (the back office is an app). */
export const pageKind = (hasForm, pathname) =>
  hasForm || FORM_ROUTES.has(pathname) || pathname.startsWith("/admin/") ? "form" : "page";
/** The first-screen budget is for what visitors and customers open; the admin's tables are held to the JS budget only. */
export const hasCriticalBudget = (pathname) => pathname !== "/admin" && !pathname.startsWith("/admin/");
