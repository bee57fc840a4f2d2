// Prints, for every public route of the running app, the HTML, CSS and JS it
// sends (raw and gzip), and fails when a page's HTML plus its CSS is over the
// budget: 14 KB gzip, one round trip on a satellite link (ARCHITECTURE rule 8).
//   node scripts/page-weight.mjs [base-url]      (npm test runs it against the test app)
import { gzipSync } from "node:zlib";

const BASE = process.argv[2] ?? process.env.APP_URL ?? "http://127.0.0.1:3000";
const BUDGET = 14 * 1024;
const ROUTES = [
  "/", "/services", "/about", "/contact", "/24-hour-website", "/rapid-website", "/review-generation",
  "/showcase", "/showcase/dog-groomer", "/showcase/electrician", "/showcase/accountant",
  "/privacy", "/terms", "/facebook-disclaimer", "/checkout", "/packages", "/maintenance", "/auth", "/order-status",
];

const cache = new Map();
async function fetchText(url) {
  if (!cache.has(url)) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    cache.set(url, await res.text());
  }
  return cache.get(url);
}
const size = (text) => ({ raw: Buffer.byteLength(text), gzip: gzipSync(text, { level: 9 }).length });
const sum = (parts) => parts.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
const kb = (n) => `${(n / 1024).toFixed(1)}`.padStart(6);

const rows = [];
let failed = 0;
for (const route of ROUTES) {
  const html = await fetchText(new URL(route, BASE).href);
  const attr = (re) => [...html.matchAll(re)].map((m) => new URL(m[1].replace(/&amp;/g, "&"), BASE).href);
  const css = attr(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g);
  const js = [...new Set([...attr(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g), ...attr(/<script[^>]+src="([^"]+)"/g)])];
  const h = size(html);
  const c = sum(await Promise.all(css.map(async (u) => size(await fetchText(u)))));
  const j = sum(await Promise.all(js.map(async (u) => size(await fetchText(u)))));
  const critical = h.gzip + c.gzip;
  const over = critical > BUDGET;
  if (over) failed++;
  rows.push(`${route.padEnd(24)} ${kb(h.raw)} ${kb(h.gzip)}   ${kb(c.raw)} ${kb(c.gzip)}   ${kb(j.raw)} ${kb(j.gzip)}   ${kb(critical)} ${over ? "OVER" : "ok"}`);
}

console.log(`Page weight of ${BASE} in KB (budget: HTML + CSS <= ${BUDGET / 1024} KB gzip; JS is optional, pages work without it)`);
console.log(`${"route".padEnd(24)}   html   gzip      css   gzip       js   gzip   html+css`);
for (const row of rows) console.log(row);
if (failed) {
  console.error(`${failed} page(s) over budget`);
  process.exit(1);
}
console.log(`All ${ROUTES.length} pages are within the budget.`);
