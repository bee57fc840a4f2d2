import path from "node:path";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import { matchRoutes } from "@remix-run/react";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { deepestRoute, pathsRemixMatches, routesFor, routeTree } from "../../scripts/route-subsets.mjs";

/**
 * scripts/route-subsets.mjs hands each request to a Remix handler built with only the routes its path can
 * match. That is only right if every path Remix matches while answering gives the same routes and
 * params in the smaller tree as in the whole one. Checked here against the app's own routes (as the
 * classic compiler reads them, remix.config.js), for every route's path and for made-up paths.
 */

type Route = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

// As @remix-run/dev's readConfig builds the manifest: the root first, then the route files under it.
const routes: Record<string, Route> = { root: { id: "root", path: "" } };
for (const route of Object.values(
  flatRoutes(path.resolve("app"), remixConfig.ignoredRouteFiles) as Record<string, Route>,
))
  routes[route.id] = { ...route, parentId: route.parentId || "root" };
const whole = routeTree(routes);

const seen = (tree: unknown[], pathname: string) =>
  (matchRoutes(tree as Parameters<typeof matchRoutes>[0], pathname) ?? []).map((m) => ({
    id: m.route.id,
    params: m.params,
    pathname: m.pathname,
  }));

const deepest = deepestRoute(whole);

/** What the handler for `pathname` is built with, and whether it matches each path as the whole tree does. */
function expectSameMatches(pathname: string) {
  // Built as the server builds it (the parents deeper than any route left out), checked on every path Remix asks.
  const ids: Set<string> = routesFor(whole, pathsRemixMatches(pathname, deepest));
  const subset = routeTree(Object.fromEntries(Object.entries(routes).filter(([id]) => ids.has(id))));
  for (const asked of pathsRemixMatches(pathname)) expect(seen(subset, asked), asked).toEqual(seen(whole, asked));
  return ids;
}

/** A path for a route pattern: each `:param` and `*` filled in. */
const filled = (pattern: string) =>
  pattern.replace(/:[^/]+/g, "3f2a9c1e-7b2d-4c8e-9a6f-1d2e3f4a5b6c").replace(/\*$/, "a/b");

/** The full path pattern of each route (its parents' paths joined). */
function patterns() {
  const full = (route: Route): string =>
    route.parentId ? `${full(routes[route.parentId])}/${route.path ?? ""}` : (route.path ?? "");
  return Object.values(routes).map((route) => `/${full(route)}`.replace(/\/+/g, "/"));
}

describe("the routes handed to each request (scripts/route-subsets.mjs)", () => {
  it("reads the app's routes", () => {
    expect(Object.keys(routes).length).toBeGreaterThan(40);
    expect(Object.keys(routes)).toContain("routes/contact");
  });

  it("match every route's path, its data request and its parents as the whole tree does", () => {
    for (const pattern of patterns()) {
      const page = filled(pattern);
      for (const pathname of [page, `${page}/`, `${page === "/" ? "/_root" : page}.data`, page.toUpperCase()]) {
        const ids = expectSameMatches(pathname);
        expect(ids.has("root")).toBe(true);
      }
    }
  });

  it("give a page only its own routes, its parents' and the home page's", () => {
    const ids = expectSameMatches("/contact");
    expect([...ids].sort()).toEqual(["root", "routes/_index", "routes/contact"]);
    expect(ids.size).toBeLessThan(Object.keys(routes).length / 10);
  });

  it("are found with a few matches for a path of any depth", () => {
    expect(deepest).toBeGreaterThanOrEqual(4); // /admin/orders/:orderId/refund
    const deep = `/uploads${"/a".repeat(5000)}`;
    expect(pathsRemixMatches(deep, deepest).length).toBeLessThanOrEqual(deepest + 3);
    expectSameMatches(`/uploads${"/a".repeat(40)}`);
    expectSameMatches(`/admin/orders/x/files${"/a".repeat(40)}.data`);
  });

  it("match made-up paths as the whole tree does", () => {
    const segments = [
      ...new Set(
        patterns()
          .flatMap((p) => p.split("/"))
          .filter((s) => s && !s.startsWith(":") && s !== "*"),
      ),
    ];
    const segment = fc.oneof(
      fc.constantFrom(...segments),
      fc.constantFrom("x", "123", "%20", "..", ".", "", "_root", "a.data", "ÄÖ", "%2F"),
      // A path Remix cannot decode goes to the whole tree (the integration test has one).
      fc.string({ maxLength: 6 }).filter((s) => !s.includes("%")),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: deepest + 6 }), fc.boolean(), (parts, data) => {
        const pathname = `/${parts.join("/")}${data ? ".data" : ""}`;
        expectSameMatches(pathname);
      }),
      { numRuns: 300 },
    );
  });
});
