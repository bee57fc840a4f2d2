/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  serverModuleFormat: "esm",
  // Bundled into build/ with its patch (patches/, applied by patch-package, a devDependency), so the server
  // runs the patched code after `npm ci --omit=dev`, where postinstall cannot patch.
  serverDependenciesToBundle: [/^@conform-to\/zod/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
