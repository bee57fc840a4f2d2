// The pages measured by scripts/page-weight.mjs, reached by their paths (besides these it measures the
// 14 intake steps, the order-status link and the signed-in dashboard, reached as a customer reaches them).
// The accessibility test (tests/e2e/accessibility.test.ts) checks reflow on the same list.
export const PUBLIC_PAGES = [
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
  "/checkout",
  "/checkout?package=professional",
  "/packages",
  "/maintenance",
  "/auth",
  "/order-status",
  "/dashboard",
  "/admin",
  "/no-such-page",
];
