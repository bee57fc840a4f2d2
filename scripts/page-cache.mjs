// Pages that are the same for everyone, rendered once and served from memory.
// The app decides what may be kept (app/entry.server.tsx: a page with nothing interactive,
// asked for with no cookie and no query, answered 200 without a cookie): it marks the answer
// `Cache-Control: public, ...`. Such an answer is stored here by path, compressed once (brotli
// and gzip), and every later cookie-less GET of that path is answered from memory without
// rendering, for as long as the app lets a CDN keep it (s-maxage) or until the next deploy
// restarts the server. A request that carries any cookie (a session, a link's token, the
// checkout, a flash) always goes to the app and is rendered for it.
// Form pages that are the same for every visitor who carries nothing but for the script nonce
// and the form key (a SAME_FOR_ANYONE route, app/components/static-page.ts) are kept the same way
// as a template: the app names the form key it drew in a header (taken off here), and each later
// cookie-less GET gets a copy with this request's nonce (the one its CSP header names) and a key
// of its own, as a render would give it. They are never public: no shared cache may keep them.
// Bounded: at most MAX_PAGES paths (the oldest is dropped first), so made-up paths that the
// app answers 200 (an unknown showcase slug shows the example business) cannot grow it.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { preferredEncoding } from "./encoding.mjs";

const MAX_PAGES = 100;
/** How long a form page's template is served before the next cookie-less visit renders it again. */
const TEMPLATE_SECONDS = 300;
const NONCE = Symbol("nonce");
const FORM_KEY = Symbol("form key");

/** `pieces` with every string cut at each `value`, `marker` standing where it was (markers already there stay). */
function mark(pieces, value, marker) {
  return pieces.flatMap((piece) =>
    typeof piece === "string" ? piece.split(value).flatMap((part, i) => (i === 0 ? [part] : [marker, part])) : [piece],
  );
}

/** `public, ..., s-maxage=N` -> N seconds (0 when the answer is not public). */
function sharedMaxAge(cacheControl) {
  if (!/^\s*public\b/i.test(cacheControl)) return 0;
  return Number(/\bs-maxage=(\d+)/i.exec(cacheControl)?.[1] ?? 0);
}

/**
 * Express middleware. `publicCsp` is the Content-Security-Policy for a kept public page: it carries
 * no script, so it needs no nonce; its inline stylesheet is admitted by its hash. `formKeyHeader`
 * is the header in which the app names a form page's key (entry.server.tsx PER_COPY_KEY_HEADER), and
 * `newFormKey` draws each copy's own (app/server/form-keys.server.ts);
 * `res.locals.cspNonce` is the nonce this request's CSP header names.
 */
export function pageCache({ publicCsp, formKeyHeader, newFormKey, log = () => {} }) {
  const pages = new Map();

  function serve(req, res, page) {
    res.status(200);
    for (const [name, value] of page.headers) res.setHeader(name, value);
    if (page.template) {
      // Sent as a render is: compression() in front encodes it, and the CSP already names this nonce.
      const values = { [NONCE]: res.locals.cspNonce, [FORM_KEY]: newFormKey() };
      const body = page.template.map((piece) => (typeof piece === "string" ? piece : values[piece])).join("");
      return res.end(req.method === "HEAD" ? undefined : body);
    }
    res.setHeader("Content-Security-Policy", publicCsp);
    res.vary("Accept-Encoding");
    const encoding = preferredEncoding(req, ["br", "gzip", "identity"]);
    const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.body;
    if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
  }

  function store(path, page) {
    pages.delete(path);
    if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value);
    pages.set(path, page);
  }

  function keep(path, res, chunks, formKey) {
    if (res.statusCode !== 200 || res.hasHeader("Set-Cookie")) return;
    const headers = ["Content-Type", "Cache-Control", "Vary"]
      .filter((name) => res.hasHeader(name))
      .map((name) => [name, res.getHeader(name)]);
    const body = Buffer.concat(chunks);
    if (formKey !== undefined) {
      const nonce = res.locals.cspNonce;
      // Both are 16 random bytes: they occur nowhere else. A page that lacks either is not a form page to keep.
      const text = body.toString("utf8");
      if (typeof nonce !== "string" || nonce.length < 16 || formKey.length < 16) return;
      if (!text.includes(nonce) || !text.includes(formKey)) return;
      store(path, {
        headers,
        template: mark(mark([text], nonce, NONCE), formKey, FORM_KEY),
        until: Date.now() + TEMPLATE_SECONDS * 1000,
      });
      return log(path, body.length);
    }
    const maxAge = sharedMaxAge(String(res.getHeader("Cache-Control") ?? ""));
    if (maxAge <= 0) return;
    store(path, {
      headers,
      body,
      gzip: gzipSync(body, { level: 9 }),
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      until: Date.now() + maxAge * 1000,
    });
    log(path, body.length);
  }

  /** Takes the app's form-key header off the answer before it leaves; returns what it named (undefined: none). */
  function takeFormKey(res) {
    const value = res.getHeader(formKeyHeader);
    if (value === undefined) return undefined;
    res.removeHeader(formKeyHeader);
    return String(value);
  }

  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.cookie !== undefined) return next();
    if (req.originalUrl.includes("?")) return next();
    const path = req.path;
    const page = pages.get(path);
    if (page && page.until > Date.now()) return serve(req, res, page);
    if (page) pages.delete(path);
    const writeHead = res.writeHead;
    let formKey;
    if (req.method === "HEAD") {
      res.writeHead = function (...args) {
        takeFormKey(res);
        return writeHead.apply(this, args);
      };
      return next();
    }

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
    res.writeHead = function (...args) {
      formKey = takeFormKey(res);
      // The first copy goes out as every later one will (a CDN may keep this one).
      if (formKey === undefined && sharedMaxAge(String(res.getHeader("Cache-Control") ?? "")) > 0)
        res.setHeader("Content-Security-Policy", publicCsp);
      return writeHead.apply(this, args);
    };
    res.end = function (chunk, encoding, ...rest) {
      take(chunk, encoding);
      const ended = end.call(this, chunk, encoding, ...rest);
      // Kept as it went out: headers are final once the answer has ended.
      if (size >= 0) {
        try {
          keep(path, res, chunks, formKey);
        } catch {
          /* not kept: the next visitor gets a fresh render, nothing else changes */
        }
      }
      return ended;
    };
    next();
  };
}
