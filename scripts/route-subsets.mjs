// The Remix request handler, given for each page only the routes that page can match.
//
// Remix matches a request against the whole route tree four times (the server's match, the static
// handler's query, the partial manifest of lazy route discovery, the React render's routes), and
// @remix-run/router flattens, ranks and compiles all ~60 routes again each time: 20-28% of the CPU of a
// rendered page (docs/performance-log.md, round 20). Here each path is matched once against the whole
// tree, and the request goes to a handler built from the same build with only the routes matched by that
// path and by the paths Remix itself matches for it (its parents, for the partial manifest; for a `.data`
// request, the page's path). The framework is not changed: each handler is Remix's own, over a smaller
// build.
//
// Why the answer is the same: a smaller tree holds a subset of the whole tree's branches, in the same
// order, so any path it is asked about matches the branch the whole tree would match. Every path Remix
// asks about for this request is among those matched to make the subset (tests/unit/route-subsets.test.ts
// checks this against the app's own routes). `/__manifest` (the routes of other pages) goes to the whole
// build, as does anything this cannot name.
import { createRequestHandler } from "@remix-run/express";
import { matchRoutes } from "@remix-run/react";

/** Paths remembered with their handler (the oldest is dropped first); longer paths are matched each time. */
const MAX_PATHS = 2000;
const MAX_PATH_LENGTH = 512;

/** The route tree of a build's `routes` (id -> { parentId, path, index, caseSensitive }), in the build's order. */
export function routeTree(routes) {
  const children = new Map();
  for (const route of Object.values(routes)) {
    const siblings = children.get(route.parentId ?? "") ?? [];
    siblings.push(route);
    children.set(route.parentId ?? "", siblings);
  }
  const grow = (parentId) =>
    (children.get(parentId) ?? []).map(({ id, path, index, caseSensitive }) => {
      const below = grow(id);
      return { id, path, index, caseSensitive, ...(below.length > 0 ? { children: below } : {}) };
    });
  return grow("");
}

/**
 * Every path Remix matches while it answers a request for `pathname` (as `new URL(request.url)` gives it):
 * the path itself; for a single-fetch `.data` request, the page's path; and for the partial manifest, each
 * parent of the page's path down to `/` (@remix-run/react's getPartialManifest). With `deepest` (the most
 * segments of any route's path, `deepestRoute`), the parents more than one segment deeper are left out: they
 * match what the parent one segment deeper than any route matches (only a splat route can match them, on
 * segments they share), so a path of thousands of segments costs a few matches, not thousands.
 */
export function pathsRemixMatches(pathname, deepest = Infinity) {
  const paths = [pathname];
  const page = pathname.endsWith(".data") ? pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") : pathname;
  if (page !== pathname) paths.push(page);
  const segments = page.split("/").filter(Boolean);
  paths.push("/");
  for (let depth = 1; depth < segments.length && depth <= deepest + 1; depth++)
    paths.push(`/${segments.slice(0, depth).join("/")}`);
  return paths;
}

/** The most segments in any route's path (a splat's `*` not counted: it matches any number). */
export function deepestRoute(tree, above = 0) {
  return Math.max(
    0,
    ...tree.map((route) => {
      const depth = above + (route.path ?? "").split("/").filter((s) => s && s !== "*").length;
      return Math.max(depth, deepestRoute(route.children ?? [], depth));
    }),
  );
}

/** The ids of the routes matched by any of `paths` in `tree` (always the root, which answers a path nothing matches). */
export function routesFor(tree, paths) {
  const ids = new Set(tree.map((route) => route.id));
  for (const path of paths) for (const match of matchRoutes(tree, path) ?? []) ids.add(match.route.id);
  return ids;
}

const pick = (record, ids) => Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));

/** The path of a request's URL as @remix-run/express builds it (its host does not change the path); null if none. */
function pathOf(originalUrl) {
  try {
    return new URL(`http://localhost${originalUrl}`).pathname;
  } catch {
    return null;
  }
}

/** Whether every segment of `pathname` is valid percent-encoding (@remix-run/router's decodePath). */
function decodable(pathname) {
  try {
    pathname.split("/").forEach((segment) => decodeURIComponent(segment));
    return true;
  } catch {
    return false;
  }
}

/** Express middleware: Remix's handler for `options.build`, each request given the routes its path can match. */
export function routeSubsetHandler(options) {
  const { build } = options;
  const whole = createRequestHandler(options);
  const tree = routeTree(build.routes);
  const deepest = deepestRoute(tree);
  const handlers = new Map();
  const byPath = new Map();

  function handlerFor(ids) {
    const key = [...ids].sort().join("\n");
    let handler = handlers.get(key);
    if (!handler) {
      const subset = {
        ...build,
        routes: pick(build.routes, ids),
        assets: { ...build.assets, routes: pick(build.assets.routes, ids) },
      };
      handler = createRequestHandler({ ...options, build: subset });
      handlers.set(key, handler);
    }
    return handler;
  }

  return (req, res, next) => {
    const pathname = pathOf(req.originalUrl);
    if (pathname === null || pathname === "/__manifest") return whole(req, res, next);
    let handler = byPath.get(pathname);
    if (!handler) {
      // A path Remix cannot decode is matched by Remix alone, as before: it warns for each match it makes.
      if (!decodable(pathname)) return whole(req, res, next);
      handler = handlerFor(routesFor(tree, pathsRemixMatches(pathname, deepest)));
      if (pathname.length <= MAX_PATH_LENGTH) {
        if (byPath.size >= MAX_PATHS) byPath.delete(byPath.keys().next().value);
        byPath.set(pathname, handler);
      }
    }
    return handler(req, res, next);
  };
}
