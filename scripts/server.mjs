// The production HTTP server: security headers with a per-request CSP nonce, a
// cross-origin check on every state-changing request, request logs that never
// carry tokens, static assets, and the Remix app. `npm start` and the tests run it.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const production = process.env.NODE_ENV === "production";
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? (production ? "0.0.0.0" : "127.0.0.1");

const build = await import(pathToFileURL(path.join(root, "build/index.js")).href);

const app = express();
app.disable("x-powered-by");
// Behind one proxy (a load balancer) in production, so req.ip is the visitor's address.
app.set("trust proxy", production ? 1 : false);
app.use(compression());

/** Query values that are secrets (access links) never reach the log. */
const SECRET_PARAMS = /token|session_id|secret|key|code|password/i;
function loggablePath(url) {
  const u = new URL(url, "http://x");
  for (const [k] of u.searchParams) if (SECRET_PARAMS.test(k)) u.searchParams.set(k, "[redacted]");
  return u.pathname + (u.search ? decodeURIComponent(u.search) : "");
}

app.use((req, res, next) => {
  const start = process.hrtime.bigint();
  res.on("finish", () => {
    if (req.path.startsWith("/build/") || req.path === "/healthz") return;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    console.log(
      JSON.stringify({
        time: new Date().toISOString(),
        level: "info",
        event: "http.request",
        method: req.method,
        path: loggablePath(req.originalUrl),
        status: res.statusCode,
        ms: Math.round(ms),
      }),
    );
  });
  next();
});

app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.setHeader(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "style-src 'self'",
      "img-src 'self' data: https:",
      "connect-src 'self'",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
      "form-action 'self' https://checkout.stripe.com",
      ...(production ? ["upgrade-insecure-requests"] : []),
    ].join("; "),
  );
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  if (production) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  // The app reads the client address from here (rate limits); never from a header the client sent.
  req.headers["x-client-address"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  next();
});

/**
 * Cross-site request forgery: a state-changing request from a browser must come
 * from this site. Browsers send Sec-Fetch-Site (or at least Origin) on every
 * POST; requests with neither are not from a browser (Stripe's webhook, curl),
 * and those routes check their own signatures or secrets.
 */
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const site = req.get("sec-fetch-site");
  if (site === "same-origin" || site === "none") return next();
  const origin = req.get("origin");
  if (!site && !origin) return next();
  if (origin && origin !== "null") {
    try {
      if (new URL(origin).host === req.get("host")) return next();
    } catch {
      /* fall through */
    }
  }
  res.status(403).type("text/plain").send("Forbidden: cross-site request refused.");
});

app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(root, "public"), { maxAge: "1h" }));

app.all(
  "*",
  createRequestHandler({
    build,
    mode: production ? "production" : "development",
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce }),
  }),
);

const server = app.listen(port, host, () => {
  console.log(JSON.stringify({ time: new Date().toISOString(), level: "info", event: "server.listening", url: `http://${host}:${port}` }));
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
