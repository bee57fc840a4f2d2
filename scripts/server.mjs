// The production HTTP server: security headers with a per-request CSP nonce, a
// cross-origin check on every state-changing request, request logs that never
// carry tokens, static assets, and the Remix app. `npm start` and the tests run it.
import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import onHeaders from "on-headers";
import { loadEnvFile } from "./env-file.mjs";
import { preferredEncoding } from "./encoding.mjs";
import { pageCache } from "./page-cache.mjs";
import { routeSubsetHandler } from "./route-subsets.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// `.env` first (values already in the environment win), then the build, which validates the whole
// environment and stops here naming every missing or malformed value.
loadEnvFile();
const build = await import(pathToFileURL(path.join(root, "build/index.js")).href);
// `npm start`: the production build and runtime on this machine, on plain http://localhost with the
// stand-ins (LOCAL_STANDINS=1). Only a deployment listens on every interface, trusts its proxy and, on
// an https APP_URL, tells browsers to use https (app/server/env.server.ts, serverSettings).
const { production, deployed, host, port, trustProxy, publicOrigin, https } = build.entry.module.SERVER_SETTINGS;

const app = express();
app.disable("x-powered-by");
// Behind TRUST_PROXY proxies (1: Caddy or nginx; 2: a CDN, then Caddy or nginx), req.ip is the visitor's
// address, read from that many X-Forwarded-For entries counted from our side; never an entry the visitor wrote.
app.set("trust proxy", trustProxy || false);
app.use(compression());

/**
 * Slow bodies: a body may take as long as it needs while bytes keep coming (a 3.4 MB photo
 * over a 256 kbps satellite uplink takes ~110 s), but one that stalls, no byte for BODY_STALL_MS, is dropped and
 * its connection freed (Node's own whole-request limit held a stalled body for 300 s and cut a slow one off at
 * the same point; it is off, see the server's options below). The socket's idle timer counts the wait while the
 * body is unread; once the body is in, the app may take its time to answer.
 */
const BODY_STALL_MS = 30_000;
/** A request that says it has no body (a GET, a HEAD): nothing to stall, and nothing would ever end the timer. */
const hasBody = (req) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
app.use((req, res, next) => {
  // Armed only for a body still on its way. A bodiless GET's stream is never read, so its "end" never came and
  // the timer stayed armed: a page that took over 30 s to render was cut off with no answer and no log line.
  if (req.complete || !hasBody(req)) return next();
  const socket = req.socket;
  const stalled = () => {
    if (req.complete) return;
    logLine("info", "http.body_stalled", { method: req.method, path: loggablePath(req.originalUrl) });
    socket.destroy();
  };
  const done = () => {
    socket.setTimeout(0);
    socket.removeListener("timeout", stalled);
  };
  socket.setTimeout(BODY_STALL_MS, stalled);
  req.once("end", done);
  req.once("close", done);
  next();
});

/** One JSON line on stdout; a value that cannot be serialised never stops the request. */
function logLine(level, event, fields = {}) {
  try {
    console.log(JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }));
  } catch {
    console.log(JSON.stringify({ time: new Date().toISOString(), level, event, note: "fields could not be logged" }));
  }
}

/** Query values that are secrets (access links) never reach the log. */
const SECRET_PARAMS = /token|session_id|secret|key|code|password/i;

/**
 * The path and query to log, with secret values redacted. Never throws: a URL
 * that does not parse (`//`, `/?a=%`) is logged raw, its query reduced to names
 * and anything after a secret-looking name redacted.
 */
function loggablePath(url) {
  try {
    const u = new URL(`http://x${url.startsWith("/") ? "" : "/"}${url}`);
    for (const [k] of u.searchParams) if (SECRET_PARAMS.test(k)) u.searchParams.set(k, "[redacted]");
    let search = u.search;
    try {
      search = decodeURIComponent(search);
    } catch {
      /* keep it encoded: a stray % is not worth losing the line over */
    }
    return u.pathname + search;
  } catch {
    const [pathname, query = ""] = String(url).split("?", 2);
    const names = query.split("&").map((pair) => {
      const name = pair.split("=", 1)[0];
      return SECRET_PARAMS.test(name) ? `${name}=[redacted]` : pair;
    });
    return pathname + (query ? `?${names.join("&")}` : "");
  }
}

app.use((req, res, next) => {
  const start = process.hrtime.bigint();
  res.on("finish", () => {
    try {
      if (req.path.startsWith("/build/") || req.path === "/healthz" || req.path === "/readyz") return;
      logLine("info", "http.request", {
        method: req.method,
        path: loggablePath(req.originalUrl),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - start) / 1e6),
      });
    } catch {
      /* the logger is never the thing that fails */
    }
  });
  next();
});

// A deployment answers at one public address (APP_URL) whatever Host its proxy passes on (nginx's default
// proxy_pass sends the upstream's): Remix builds each request's URL, and compares a form post's Origin, from
// X-Forwarded-Host, which is therefore always that address. The Origin check below has its own rule.
const publicHost = new URL(publicOrigin).host;
if (deployed)
  app.use((req, _res, next) => {
    req.headers["x-forwarded-host"] = publicHost;
    next();
  });

/**
 * The host this request was addressed to, as Remix will read it (X-Forwarded-Host
 * first, then Host). A request whose host does not make a URL is refused here,
 * before the adapter tries to build one.
 */
function requestHost(req) {
  const forwarded = req.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || req.get("host") || "";
}
app.use((req, res, next) => {
  try {
    const host = requestHost(req);
    // Only a host and port: a Host such as `x/admin` would make a URL whose path is not the request's path, so
    // Remix would route by a path that none of the middleware here looked at.
    if (host && !/[/?#@\\\s]/.test(host) && new URL(`http://${host}`).host) return next();
  } catch {
    /* fall through */
  }
  res.status(400).type("text/plain").send("Bad Request: the Host header is missing or not a host name.");
});

/**
 * No page of ours has a path near 2 KB; a longer one is refused before any router reads it, so the work of matching
 * a path (here, in Remix, in the route subsets) has a bound. The query string is not counted: Node's header limit
 * bounds it, and nothing matches routes on it.
 */
const MAX_PATH_BYTES = 2048;
app.use((req, res, next) => {
  const query = req.originalUrl.indexOf("?");
  if ((query < 0 ? req.originalUrl.length : query) <= MAX_PATH_BYTES) return next();
  res.status(414).type("text/plain").send(`URI Too Long: a path may be at most ${MAX_PATH_BYTES} characters.`);
});

/**
 * `?_data=` is the data request of Remix before single fetch, which this app uses (remix.config.js): its own pages
 * never send one, and Remix answers one by writing an error line ("should not be making ?_data requests"), so any
 * visitor could fill the log with errors. It is a client's bad request: a 400 that says so,
 * logged as a request like any other.
 */
app.use((req, res, next) => {
  const query = req.originalUrl.indexOf("?");
  if (query < 0 || !new URLSearchParams(req.originalUrl.slice(query + 1)).has("_data")) return next();
  res
    .status(400)
    .type("text/plain")
    .send("Bad Request: ?_data= requests are not served here (the pages load their data another way).");
});

/**
 * Private answers, derived from what each answer read (app/server/private-response.server.ts): one that read
 * a credential the request carried (the session, a link's token cookie, the checkout cookie, a flash) or a
 * token in its address, or that sets a cookie, is `no-store` (a route's own `private` caching, as /uploads
 * sets for owner-only images, is kept); one that read cookies the request did not carry varies by cookie.
 * Every answer to a POST is `no-store`.
 */
const trackResponsePrivacy = build.entry.module.trackResponsePrivacy;
app.use((req, res, next) => {
  const read = { readCookies: false, private: false };
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    // Set last, over whatever the route set: a private answer is never stored.
    const isPrivate = (req.method !== "GET" && req.method !== "HEAD") || read.private || res.hasHeader("Set-Cookie");
    const own = String(res.getHeader("Cache-Control") ?? "");
    if (isPrivate && !/\b(private|no-store)\b/.test(own)) res.setHeader("Cache-Control", "no-store");
    else if (read.readCookies && !isPrivate) res.vary("Cookie");
    return writeHead.apply(this, args);
  };
  trackResponsePrivacy(read, next);
});

/**
 * Lingering close: an answer sent before the body was read (a refused or
 * oversized post) is followed by reading and discarding whatever the client is
 * still sending, so it can read the answer instead of meeting a reset, and the
 * next request on the connection starts where it should. Never held in memory;
 * a client still sending after LINGER_MS loses the connection.
 */
const LINGER_MS = 10_000;
app.use((req, res, next) => {
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    const cutOff = setTimeout(() => req.socket?.destroy(), LINGER_MS);
    const done = () => clearTimeout(cutOff);
    req.removeAllListeners("data");
    req.on("data", () => {});
    req.once("end", done);
    req.once("close", done);
    req.resume();
  });
  next();
});

/**
 * The Content-Security-Policy: scripts by a nonce made for this request (a page with no script,
 * kept for everyone, gets none: scripts/page-cache.mjs); the stylesheet inlined in each document
 * (app/components/InlineStylesheet.tsx) by its hash, the same in every copy.
 */
const stylesheetSource = build.entry.module.STYLESHEET_CSP_SOURCE;
const contentSecurityPolicy = (nonce) =>
  [
    "default-src 'self'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'self'",
    `style-src 'self' ${stylesheetSource}`,
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self' https://checkout.stripe.com",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

/**
 * The policies a browser applies only to a document it shows (a script's or a fetch's answer is never one).
 * They are left off the answers that are scripts (the built chunks; Remix's `.data` answers, text/x-script,
 * read by its fetch): about 550 bytes each, which HTTP/2 cannot index away (the nonce makes every CSP new),
 * so about 4 ms an answer at 1 Mbps, and a form page asks for fifteen or more of them. Anything a browser
 * could show as a page (HTML, SVG, text, an error) keeps them all.
 */
const DOCUMENT_POLICIES = [
  "Content-Security-Policy",
  "X-Frame-Options",
  "Permissions-Policy",
  "Cross-Origin-Opener-Policy",
];
const SCRIPT_TYPES = /^(?:text\/javascript|application\/javascript|text\/x-script)\s*(?:;|$)/i;

app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  onHeaders(res, () => {
    if (SCRIPT_TYPES.test(String(res.getHeader("Content-Type") ?? "")))
      for (const name of DOCUMENT_POLICIES) res.removeHeader(name);
  });
  // The app reads the client address from here (rate limits); never from a header the client sent.
  req.headers["x-client-address"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  next();
});

/**
 * Cross-site request forgery: a state-changing request from a browser must come
 * from this site. Browsers send Sec-Fetch-Site (or at least Origin) on every
 * POST; requests with neither are not from a browser (Stripe's webhook, curl),
 * and those routes check their own signatures or secrets. An Origin, when sent,
 * must be this site whatever Sec-Fetch-Site says (Remix would otherwise throw
 * its own check as a 500): the public origin (APP_URL), whatever Host a proxy
 * passes on; on this machine (not deployed) also the address the browser used.
 */
function isOwnOrigin(origin, req) {
  if (origin === "null") return false;
  try {
    const url = new URL(origin);
    return url.origin === publicOrigin || (!deployed && url.host === requestHost(req));
  } catch {
    return false;
  }
}
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  if (origin !== undefined) {
    if (isOwnOrigin(origin, req) && (!site || site === "same-origin")) return next();
  } else if (!site || site === "same-origin" || site === "none") return next();
  logLine("warn", "http.cross_site_refused", {
    method: req.method,
    path: loggablePath(req.originalUrl),
    site: site ?? null,
  });
  res.status(403).type("text/plain").send("Forbidden: cross-site request refused.");
});

// Pages the app marks public (the same for every visitor who carries no cookie) are answered
// from memory after their first render, before any file lookup or rendering; so are the form pages
// it marks the same for anyone, each copy with this request's nonce and a fresh form key.
app.use(
  pageCache({
    publicCsp: contentSecurityPolicy(null),
    formKeyHeader: build.entry.module.PER_COPY_KEY_HEADER,
    newFormKey: build.entry.module.newFormKey,
  }),
);

// Built assets are compressed once at build time (scripts/compress-assets.mjs); a browser that
// accepts brotli or gzip gets the stored file (brotli when it accepts both, whatever order it lists them in),
// and compression() leaves an encoded response alone.
const buildDir = path.join(root, "public/build");
const precompressed = await listPrecompressed(buildDir);
app.use("/build", (req, res, next) => {
  const encodings = precompressed.get(req.path);
  if (!encodings || (req.method !== "GET" && req.method !== "HEAD")) return next();
  res.vary("Accept-Encoding");
  const accepted = preferredEncoding(req, [...encodings.keys(), "identity"]);
  const suffix = accepted && encodings.get(accepted);
  if (!suffix) return next();
  res.set("Content-Encoding", accepted);
  res.type(path.extname(req.path));
  res.sendFile(
    req.path.slice(1) + suffix,
    { root: buildDir, immutable: true, maxAge: "1y" },
    (error) => error && next(error),
  );
});
app.use("/build", express.static(buildDir, { immutable: true, maxAge: "1y" }));
// The other public files (the favicon) are listed once at start, so a page's path is not looked for on disk.
const publicDir = path.join(root, "public");
const publicFiles = await listPublicFiles(publicDir);
const servePublic = express.static(publicDir, { maxAge: "1h" });
app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));

app.all(
  "*",
  routeSubsetHandler({
    build,
    mode: production ? "production" : "development",
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce }),
  }),
);

// The last handler: an error no route caught is logged (never its request's secrets) and answered, never thrown on.
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- Express recognises an error handler by its four parameters
app.use((error, req, res, _next) => {
  const status = Number(error?.status ?? error?.statusCode);
  const clientError = Number.isInteger(status) && status >= 400 && status < 500;
  logLine(clientError ? "warn" : "error", "http.unhandled", {
    method: req.method,
    path: loggablePath(req.originalUrl),
    reason: String(error?.message ?? error),
  });
  if (res.headersSent) return res.destroy();
  res
    .status(clientError ? status : 500)
    .type("text/plain")
    .send(clientError ? "Bad Request." : "Unexpected Application Error! Please try again.");
});

// A last line, not the fix: anything that escapes every handler is logged rather than lost.
process.on("uncaughtException", (error) =>
  logLine("error", "process.uncaught_exception", { reason: String(error?.message ?? error), stack: error?.stack }),
);
process.on("unhandledRejection", (error) =>
  logLine("error", "process.unhandled_rejection", { reason: String(error?.message ?? error) }),
);

/** The URL path, under `dir`, of the file `name` in the directory of the readdir entry `entry`. */
function urlPathOf(dir, entry, name) {
  return (
    "/" +
    path
      .relative(dir, path.join(entry.parentPath ?? entry.path, name))
      .split(path.sep)
      .join("/")
  );
}

/** The URL paths of the files in public/ outside build/ (served from disk as they are). Read once at start. */
async function listPublicFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return new Set(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => urlPathOf(dir, entry, entry.name))
      .filter((url) => !url.startsWith("/build/")),
  );
}

/** Every built file with a .br or .gz beside it: URL path -> encoding -> file suffix. Read once at start. */
async function listPrecompressed(dir) {
  const found = new Map();
  let entries = [];
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return found; // not built yet: plain static files only
  }
  for (const entry of entries) {
    const match = /^(.*)\.(br|gz)$/.exec(entry.name);
    if (!entry.isFile() || !match) continue;
    const url = urlPathOf(dir, entry, match[1]);
    if (!found.has(url)) found.set(url, new Map());
    found.get(url).set(match[2] === "br" ? "br" : "gzip", `.${match[2]}`);
  }
  // Preference order when a browser accepts both: brotli first.
  for (const [url, encodings] of found) found.set(url, new Map([...encodings].sort(([a]) => (a === "br" ? -1 : 1))));
  return found;
}

// Stored documents are migrated before the first request (app/server/migrations.server.ts): a new version
// never serves documents it does not understand. A migration that fails stops the start.
try {
  const migrated = await build.entry.module.migrateOnStart();
  if (migrated.ran.length || migrated.waitedFor.length) logLine("info", "server.migrated", migrated);
} catch (error) {
  logLine("error", "server.migration_failed", { reason: String(error?.message ?? error) });
  process.exit(1);
}

// Headers must arrive within HEADERS_TIMEOUT_MS (Node's default is a minute); a body is limited by its stalls
// (above), not by its length, so Node's whole-request limit is off. The limits are checked every 5 s.
const HEADERS_TIMEOUT_MS = 15_000;
const server = http.createServer(
  { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: 0, connectionsCheckingInterval: 5_000 },
  app,
);
server.listen(port, host, () => {
  logLine("info", "server.listening", { url: `http://${host}:${port}` });
});
// A server that cannot listen (the port is taken) must not linger as a process that serves nothing.
server.on("error", (error) => {
  logLine("error", "server.listen_failed", { reason: String(error?.message ?? error) });
  process.exit(1);
});

// Stop taking requests, let those under way finish, and leave even if a browser holds a keep-alive
// connection open (server.close alone waits for it, so a stopped app could keep its port).
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
