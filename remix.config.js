/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // _intake-step.tsx: what the 14 intake step routes share (their meta, reloading, error boundary), not a route.
  ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/_intake-step.tsx"],
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
