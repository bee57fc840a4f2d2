// Pages that are the same for everyone, rendered once and served from memory.
// The app decides what may be kept (app/entry.server.tsx: a page with nothing interactive,
// asked for with no cookie and no query, answered 200 without a cookie): it marks the answer
// `Cache-Control: public, ...`. Such an answer is stored here by path, compressed once (brotli
// and gzip), and every later cookie-less GET of that path is answered from memory without
// rendering, for as long as the app lets a CDN keep it (s-maxage) or until the next deploy
// restarts the server. A request that carries any cookie (a session, a link's token, the
// checkout, a flash) always goes to the app and is rendered for it.
// Bounded: at most MAX_PAGES paths (the oldest is dropped first), so made-up paths that the
// app answers 200 (an unknown showcase slug shows the example business) cannot grow it.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { preferredEncoding } from "./encoding.mjs";

const MAX_PAGES = 100;

/** `public, ..., s-maxage=N` -> N seconds (0 when the answer is not public). */
function sharedMaxAge(cacheControl) {
  if (!/^\s*public\b/i.test(cacheControl)) return 0;
  return Number(/\bs-maxage=(\d+)/i.exec(cacheControl)?.[1] ?? 0);
}

/**
 * Express middleware. `publicCsp` is the Content-Security-Policy for a kept page: it carries
 * no script, so it needs no nonce; its inline stylesheet is admitted by its hash.
 */
export function pageCache({ publicCsp, log = () => {} }) {
  const pages = new Map();

  function serve(req, res, page) {
    res.status(200);
    for (const [name, value] of page.headers) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", publicCsp);
    res.vary("Accept-Encoding");
    const encoding = preferredEncoding(req, ["br", "gzip", "identity"]);
    const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.body;
    if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
  }

  function keep(path, res, chunks) {
    const maxAge = sharedMaxAge(String(res.getHeader("Cache-Control") ?? ""));
    if (res.statusCode !== 200 || maxAge <= 0 || res.hasHeader("Set-Cookie")) return;
    const body = Buffer.concat(chunks);
    const headers = ["Content-Type", "Cache-Control", "Vary"]
      .filter((name) => res.hasHeader(name))
      .map((name) => [name, res.getHeader(name)]);
    pages.delete(path);
    if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value);
    pages.set(path, {
      headers,
      body,
      gzip: gzipSync(body, { level: 9 }),
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      until: Date.now() + maxAge * 1000,
    });
    log(path, body.length);
  }

  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.cookie !== undefined) return next();
    if (req.originalUrl.includes("?")) return next();
    const path = req.path;
    const page = pages.get(path);
    if (page && page.until > Date.now()) return serve(req, res, page);
    if (page) pages.delete(path);
    if (req.method === "HEAD") return next();

    // Not kept yet: let the app render it, and keep what it wrote (compression sits in front
    // of this, so what passes here is the plain document).
    const chunks = [];
    let size = 0;
    const write = res.write;
    const end = res.end;
    const take = (chunk, encoding) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function" || size < 0) return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8");
      size += buffer.length;
      // A page is a few tens of KB: something much larger is not a page to keep.
      if (size > 512 * 1024) size = -1;
      else chunks.push(buffer);
    };
    res.write = function (chunk, encoding, ...rest) {
      take(chunk, encoding);
      return write.call(this, chunk, encoding, ...rest);
    };
    const writeHead = res.writeHead;
    res.writeHead = function (...args) {
      // The first copy goes out as every later one will (a CDN may keep this one).
      if (sharedMaxAge(String(res.getHeader("Cache-Control") ?? "")) > 0)
        res.setHeader("Content-Security-Policy", publicCsp);
      return writeHead.apply(this, args);
    };
    res.end = function (chunk, encoding, ...rest) {
      take(chunk, encoding);
      const ended = end.call(this, chunk, encoding, ...rest);
      // Kept as it went out: headers are final once the answer has ended.
      if (size >= 0) {
        try {
          keep(path, res, chunks);
        } catch {
          /* not kept: the next visitor gets a fresh render, nothing else changes */
        }
      }
      return ended;
    };
    next();
  };
}
