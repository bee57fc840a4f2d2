// The site's public pages, one list for every test and script that walks them: the shell and title
// checks (tests/e2e/shell.test.ts, public-pages.test.ts), the seed walk (tests/support/seed-walk.ts), the
// reflow check (tests/e2e/accessibility.test.ts), the screenshots (scripts/screenshots.ts) and the page
// weights (scripts/page-weight.mjs, which besides these measures the 14 intake steps, the order-status link
// and the signed-in dashboard, reached as a customer reaches them). A new page joins here once.

/** The marketing and legal pages of spec 1 section 2: no form but the contact page's, nobody signed in. */
export const SITE_PAGES = [
  "/",
  "/services",
  "/about",
  "/contact",
  "/24-hour-website",
  "/rapid-website",
  "/review-generation",
  "/showcase",
  "/showcase/dog-groomer",
  "/showcase/electrician",
  "/showcase/accountant",
  "/privacy",
  "/terms",
  "/facebook-disclaimer",
];

/** What a path that is no page answers (404, inside the site's shell). */
export const NOT_FOUND_PAGE = "/no-such-page";

/** Every page a visitor can open by its path: the site's pages, the buying and signing-in pages, and a 404. */
export const PUBLIC_PAGES = [
  ...SITE_PAGES,
  "/checkout",
  "/checkout?package=professional",
  "/packages",
  "/maintenance",
  "/auth",
  "/order-status",
  "/dashboard",
  "/admin",
  NOT_FOUND_PAGE,
];
