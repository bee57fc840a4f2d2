// Prints, for every public route of the running app and for the pages a customer
// spends longest on (the 14 intake steps, the order-status page and the signed-in
// dashboard), the HTML (with its inlined CSS), any linked CSS and the JS it loads
// (raw, gzip, and brotli as the server sends it to Chromium: built files and kept pages at
// quality 11, a rendered page at compression()'s quality 4), and fails a page that is over budget
// (ARCHITECTURE rule 8), counted in what Chromium receives (brotli):
//   - HTML + CSS <= 14 KB: the first screen in one round trip on a satellite link;
//   - a page without a form: no script at all (not even inline) and nothing linked, so it is
//     one request, its HTML; a page with a form: JS <= JS_BUDGET.form (the framework and what
//     the form uses, and on an intake step the modules of the steps before and after it, which
//     it fetches once it is shown: components/intake/NeighbourStepModules.tsx). The budget
//     follows what the page is, so pages added later are held to it without listing them twice;
//   - no empty script files (each costs a round trip).
// The customer's pages are reached the way a customer reaches them, black-box: a new
// buyer pays through the offline test checkout, follows the success page's intake
// link and answers each step with Next; the order-status link and the account's
// confirmation link are read from the app's own mailbox page (/dev/mail). Where the
// app offers neither (a real deployment: Stripe, real mail), those pages are listed
// as skipped with the reason, and nothing is created there.
// The admin's form pages (orders, an order's detail and its tabs, refund, restart-clock, coupons,
// outbox, payments, privacy, security) are measured when an admin account is named in
// PAGE_WEIGHT_ADMIN="email password" (npm test makes one with create-admin): the script signs in
// as a person does, sets up the second factor from the key the page shows, and opens each page.
//   node scripts/page-weight.mjs [base-url] [extra paths...]     (npm test runs it against the test app)
//   --strict   a page that could not be reached fails instead of being skipped (npm test)
import { createHmac, randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { EMPTY_CHUNK } from "./empty-chunk.mjs";
import { CRITICAL_BUDGET, hasCriticalBudget, JS_BUDGET, KB, pageKind } from "./page-budgets.mjs";
import { PUBLIC_PAGES } from "./page-list.mjs";

const args = process.argv.slice(2);
const strict = args.includes("--strict");
const [base, ...extra] = args.filter((a) => a !== "--strict");
const BASE = base ?? process.env.APP_URL ?? "http://127.0.0.1:3000";

const ROUTES = [...PUBLIC_PAGES, ...extra];
const INTAKE_STEPS = 14;
const STATUS_PAGE = "/order-status (its link)";
const ADMIN_PAGES = [
  "/admin",
  "/admin/orders/:id",
  "/admin/orders/:id?tab=edit-data",
  "/admin/orders/:id?tab=revision-1",
  "/admin/orders/:id/refund",
  "/admin/orders/:id/restart-clock",
  "/admin/coupons",
  "/admin/outbox",
  "/admin/payments",
  "/admin/privacy",
  "/admin/security",
];
const DASHBOARD_PAGE = "/dashboard (signed in)";
const CUSTOMER_PAGES = [
  ...Array.from({ length: INTAKE_STEPS }, (_, i) => `/intake-form/${i + 1}`),
  STATUS_PAGE,
  DASHBOARD_PAGE,
];

/**
 * The fewest answers each intake step asks for before Next moves on (spec 1 section 5);
 * the steps not listed need none. Step 1's contact e-mail is the buyer's, added below.
 */
const INTAKE_ANSWERS = {
  1: {
    businessName: "Page Weight Plumbing",
    contactPhone: "0400 000 000",
    serviceArea: "Lismore",
    businessType: "trades",
    businessDescription: "Plumbing for homes and farms around Lismore.",
  },
  2: { websitePurpose: "lead_generation", mainCta: "Call for a quote" },
  3: { "servicesList[0].name": "Blocked drains" },
  5: { primaryDomain: "pageweightplumbing.com.au" },
  9: { legalPagesDisclaimer: "on" },
  11: { packageSelected: "modern_minimal" },
  12: {
    aiChoice: "ai",
    allowAIDataProcessing: "on",
    allowDataForWebsiteGeneration: "on",
    understandObfuscation: "on",
    understandDataUsage: "on",
  },
};

/**
 * One browser's visit: its own cookies, redirects followed by hand, forms posted as a
 * browser posts them (same-origin). On a loopback base each visitor comes from an address
 * of its own (any 127.x.y.z reaches the app), so the app's per-address limits, already
 * used by earlier tests, are not what is measured.
 */
class Visitor {
  cookies = new Map();
  from = /^127\./.test(new URL(BASE).hostname)
    ? `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(2, 250)}`
    : undefined;

  request(path, { method = "GET", form } = {}) {
    const url = new URL(path, BASE);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers = { Accept: "text/html", "Accept-Encoding": "identity" };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (body !== undefined) {
      Object.assign(headers, {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": Buffer.byteLength(body),
        Origin: url.origin,
        "Sec-Fetch-Site": "same-origin",
      });
    }
    return new Promise((resolve, reject) => {
      const req = (url.protocol === "https:" ? https : http).request(
        url,
        { method, headers, localAddress: this.from },
        (res) => {
          for (const line of res.headers["set-cookie"] ?? []) {
            const [pair, ...attributes] = line.split(";");
            const [name, value] = [pair.slice(0, pair.indexOf("=")).trim(), pair.slice(pair.indexOf("=") + 1).trim()];
            const expired = attributes.some(
              (a) =>
                /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now()),
            );
            if (!value || expired) this.cookies.delete(name);
            else this.cookies.set(name, value);
          }
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode,
              location: res.headers.location,
              text: Buffer.concat(chunks).toString("utf8"),
              url: url.href,
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  /** GET, following redirects (a 303 after a post lands here too), as a browser does. */
  async get(path) {
    let url = new URL(path, BASE).href;
    for (let hops = 0; hops < 10; hops++) {
      const res = await this.request(url);
      if (res.status < 300 || res.status >= 400 || !res.location) return res;
      url = new URL(res.location, url).href;
      if (new URL(url).origin !== new URL(BASE).origin) return { ...res, url }; // not followed off the site (Stripe)
    }
    throw new Error(`${path}: too many redirects`);
  }
}

const assets = new Map();
async function fetchAsset(url) {
  if (!assets.has(url)) {
    assets.set(
      url,
      fetch(url).then(async (res) => {
        if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
        return res.text();
      }),
    );
  }
  return assets.get(url);
}
/** Brotli quality: scripts/compress-assets.mjs builds the assets' .br files at 11; compression() renders pages at 4. */
const BUILT = 11;
const RENDERED = 4;
const size = (text, quality = BUILT) => ({
  raw: Buffer.byteLength(text),
  gzip: gzipSync(text, { level: 9 }).length,
  br: brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }).length,
});
const sum = (parts) =>
  parts.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, br: a.br + b.br }), { raw: 0, gzip: 0, br: 0 });
const kb = (n) => `${(n / KB).toFixed(1)}`.padStart(6);
const unescape = (s) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

/**
 * Every script the page makes the browser load: the modulepreload links and script tags,
 * and whatever those import statically (followed here, so a chunk the links leave out
 * is still counted). Dynamic import() is not followed: nothing is loaded until it runs.
 */
async function scriptsOf(html, pageUrl) {
  const attr = (re) => [...html.matchAll(re)].map((m) => new URL(unescape(m[1]), pageUrl).href);
  const inline = [...html.matchAll(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("\n");
  const found = new Set([
    ...attr(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ...attr(/<script[^>]+src="([^"]+)"/g),
    ...staticImports(inline, pageUrl),
  ]);
  for (const url of await neighbourModules(html, pageUrl)) found.add(url);
  for (const url of found) for (const imported of staticImports(await fetchAsset(url), url)) found.add(imported);
  return [...found];
}

/**
 * On intake step N, the route modules of steps N-1 and N+1 and what they import: NeighbourStepModules
 * preloads them once the page is shown, so they are part of what the page costs on the link. Read from the
 * build's whole route manifest, /build/manifest-*.js (the page's inline manifest names it as its "url").
 */
async function neighbourModules(html, pageUrl) {
  const step = Number(/^\/intake-form\/(\d+)$/.exec(new URL(pageUrl).pathname)?.[1]);
  if (!step) return [];
  const manifestPath = /"url":\s*"(\/build\/manifest-[^"]+\.js)"/.exec(html)?.[1];
  if (!manifestPath)
    throw new Error(`${pageUrl}: the page names no route manifest, so its neighbours cannot be counted`);
  const manifestUrl = new URL(manifestPath, pageUrl).href;
  const code = await fetchAsset(manifestUrl);
  const { routes } = JSON.parse(code.slice(code.indexOf("{"), code.lastIndexOf("}") + 1));
  return Object.values(routes)
    .filter((route) => route.path === `intake-form/${step - 1}` || route.path === `intake-form/${step + 1}`)
    .flatMap((route) => [route.module, ...(route.imports ?? [])])
    .map((href) => new URL(href, manifestUrl).href);
}
const staticImports = (code, from) =>
  [...code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)].map((m) => new URL(m[1], from).href);

const rows = [];
let failed = 0;
let measured = 0;

/** Measures one page a visitor has just loaded. */
async function measure(name, page) {
  const { text: html, url } = page;
  const pathname = new URL(url).pathname;
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map(
    (m) => new URL(unescape(m[1]), url).href,
  );
  const js = await scriptsOf(html, url);
  const kind = pageKind(/<form[\s>]/i.test(html), pathname);
  const h = size(html, RENDERED);
  const c = sum(await Promise.all(css.map(async (u) => size(await fetchAsset(u)))));
  const j = sum(await Promise.all(js.map(async (u) => size(await fetchAsset(u)))));
  const critical = h.br + c.br;
  // A script with nothing in it (a `.server` module's browser stand-in) is a round trip for nothing:
  // the build's drop-empty-chunks step removes them, and this notices when it stops doing so.
  const empty = (await Promise.all(js.map(async (u) => EMPTY_CHUNK.test(await fetchAsset(u))))).filter(Boolean).length;
  const over = [
    critical > CRITICAL_BUDGET && hasCriticalBudget(pathname) && "html+css",
    j.br > JS_BUDGET[kind] && "js",
    kind === "page" && /<script[\s>]/i.test(html) && "a script on a page without a form",
    kind === "page" && css.length + js.length > 0 && "more than one request",
    empty && `${empty} empty script file(s)`,
  ].filter(Boolean);
  if (over.length) failed++;
  measured++;
  const label = new URL(name.split(" ")[0], BASE).pathname === pathname ? name : `${name} -> ${pathname}`;
  rows.push(
    `${label.padEnd(34)} ${kind.padEnd(4)} ${kb(h.raw)} ${kb(h.br)}   ${kb(c.br)}   ${String(js.length).padStart(3)} ${kb(j.raw)} ${kb(j.gzip)} ${kb(j.br)} /${kb(JS_BUDGET[kind]).trim()}   ${kb(critical)} ${over.length ? `OVER (${over.join(", ")})` : "ok"}`,
  );
}

/** A page that could not be reached: never left out silently. */
function skip(name, reason) {
  if (strict) failed++;
  rows.push(`${name.padEnd(34)} ${strict ? "FAILED" : "skipped"}: ${reason}`);
}

class Unreachable extends Error {}
const expectStatus = (res, statuses, what) => {
  if (!statuses.includes(res.status)) {
    const alert = /role="alert"[^>]*>([\s\S]*?)<\/div>/
      .exec(res.text)?.[1]
      ?.replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    throw new Unreachable(`${what} answered HTTP ${res.status}${alert ? `: ${unescape(alert)}` : ""}`);
  }
  return res;
};

/** A link the app mailed to `to`, read from its mailbox page (development and local stand-ins only). */
async function mailedLink(visitor, to, pattern) {
  for (let tries = 0; tries < 20; tries++) {
    const mail = unescape((await visitor.get("/dev/mail")).text);
    const messages = mail.split("<tr>").filter((row) => row.includes(to));
    const link = messages.map((row) => pattern.exec(row)?.[0]).find(Boolean);
    if (link) return link;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Unreachable(`no e-mail to ${to} with ${pattern} at /dev/mail`);
}

/**
 * A new customer's visit, measuring each page as it loads: pays, answers the intake steps
 * with Next, opens the order-status link mailed to them, and signs up with the same address
 * to see the dashboard. Each part that cannot be done lists its pages with the reason.
 */
async function measureCustomerPages() {
  const email = `page-weight-${randomBytes(4).toString("hex")}@example.test`;
  const probe = new Visitor();
  // Probed first, so a real deployment is left exactly as it was.
  const offlineCheckout = (await probe.request("/checkout/offline")).status !== 404;
  const mailbox = (await probe.request("/dev/mail")).status === 200;
  const noCheckout =
    "the app takes real payments (no offline test checkout at /checkout/offline), so no order is made here";
  const noMailbox = "the app shows no mailbox (/dev/mail answers 404), so the links it e-mails cannot be read";
  if (offlineCheckout || mailbox)
    console.log(`Measuring the customer's pages as ${email} (what is made for them stays in this app's database).`);

  const steps = CUSTOMER_PAGES.slice(0, INTAKE_STEPS);
  let paid = false;
  await part(steps, !offlineCheckout && noCheckout, async (reached) => {
    const buyer = new Visitor();
    await buyer.get("/checkout");
    const paying = expectStatus(
      await buyer.request("/checkout", { method: "POST", form: { email, terms: "on", intent: "pay" } }),
      [303],
      "the checkout's Proceed to Payment",
    );
    const offline = await buyer.get(paying.location);
    const sessionId = new URL(offline.url).searchParams.get("session_id");
    if (!sessionId) throw new Unreachable(`the checkout led to ${offline.url}, not the offline test checkout`);
    const payment = expectStatus(
      await buyer.request("/checkout/offline", { method: "POST", form: { session_id: sessionId, intent: "pay" } }),
      [303],
      "Complete test payment",
    );
    paid = true;
    const success = await buyer.get(payment.location);
    const intakeLink = /href="(\/intake-form\?token=[^"]+)"/.exec(success.text)?.[1];
    if (!intakeLink) throw new Unreachable("the success page showed no intake link to the browser that paid");

    let page = await buyer.get(unescape(intakeLink));
    for (const [i, name] of steps.entries()) {
      const step = i + 1;
      if (new URL(page.url).pathname !== name)
        throw new Unreachable(`expected step ${step}, the app showed ${new URL(page.url).pathname}`);
      await reached(name, page);
      if (step === INTAKE_STEPS) break; // measured, not submitted
      const answers = { ...INTAKE_ANSWERS[step], ...(step === 1 ? { contactEmail: email } : {}), intent: "next" };
      page = await buyer.get(
        expectStatus(await buyer.request(name, { method: "POST", form: answers }), [302, 303], `step ${step}'s Next`)
          .location,
      );
    }
  });

  await part(
    [STATUS_PAGE],
    (!paid && "no order was paid for (see the intake steps)") || (!mailbox && noMailbox),
    async (reached) => {
      const link = await mailedLink(new Visitor(), email, /\/order-status\?access_token=[^\s<"]+/);
      await reached(STATUS_PAGE, await new Visitor().get(link));
    },
  );

  await part([DASHBOARD_PAGE], !mailbox && noMailbox, async (reached) => {
    const account = new Visitor();
    const password = `Pw-${randomBytes(12).toString("hex")}`;
    expectStatus(
      await account.request("/auth", {
        method: "POST",
        form: { intent: "sign-up", email, password, fullName: "Page Weight" },
      }),
      [302, 303],
      "Sign Up",
    );
    const token = new URL(await mailedLink(account, email, /\/auth\/verify\?token=[^\s<"]+/), BASE).searchParams.get(
      "token",
    );
    const confirmed = expectStatus(
      await account.request("/auth/verify", { method: "POST", form: { intent: "confirm", token, password } }),
      [302, 303],
      "the e-mail confirmation",
    );
    const dashboard = await account.get(confirmed.location);
    if (new URL(dashboard.url).pathname !== "/dashboard")
      throw new Unreachable(`confirming the account led to ${new URL(dashboard.url).pathname}`);
    await reached(DASHBOARD_PAGE, dashboard);
  });
}

/** The 6-digit code an authenticator app shows now for a base32 key (RFC 6238: SHA-1, 30 s). */
function totpCode(base32, now = Date.now()) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of base32.replace(/[\s=]/g, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const at = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/**
 * The admin's pages, as an admin reaches them: signs in with PAGE_WEIGHT_ADMIN ("email password",
 * an admin without a second factor yet), sets the second factor up from the key the page shows,
 * and opens each page; an order's pages are those of the newest order on /admin.
 */
async function measureAdminPages() {
  const [email, password] = (process.env.PAGE_WEIGHT_ADMIN ?? "").split(" ");
  await part(
    ADMIN_PAGES,
    !password && 'no admin account given (PAGE_WEIGHT_ADMIN="email password")',
    async (reached) => {
      const admin = new Visitor();
      expectStatus(
        await admin.request("/auth", {
          method: "POST",
          form: { intent: "sign-in", email, password, redirectTo: "/admin" },
        }),
        [302, 303],
        "the admin's Sign In",
      );
      let setup = await admin.get("/auth/two-factor/setup?redirectTo=%2Fadmin");
      if (!/class="totp-key"/.test(setup.text)) {
        await admin.request("/auth/two-factor/setup?redirectTo=%2Fadmin", {
          method: "POST",
          form: { intent: "start" },
        });
        setup = await admin.get("/auth/two-factor/setup?redirectTo=%2Fadmin");
      }
      const key = /class="totp-key">([^<]+)</.exec(setup.text)?.[1];
      if (!key)
        throw new Unreachable("the second factor's setup page showed no key (is the account new, without one?)");
      expectStatus(
        await admin.request("/auth/two-factor/setup?redirectTo=%2Fadmin", {
          method: "POST",
          form: { intent: "confirm", code: totpCode(key) },
        }),
        [200],
        "the second factor's confirmation",
      );
      const list = await admin.get("/admin");
      await reached("/admin", list);
      const orderId = /href="\/admin\/orders\/([0-9a-f-]{36})"/.exec(list.text)?.[1];
      if (!orderId) throw new Unreachable("/admin lists no order");
      for (const name of ADMIN_PAGES.slice(1)) await reached(name, await admin.get(name.replace(":id", orderId)));
    },
  );
}

/** Runs one part of a visit, measuring each page it reaches; the pages it did not reach are listed with the reason. */
async function part(names, unless, run) {
  const done = new Set();
  try {
    if (unless) throw new Unreachable(unless);
    await run(async (name, page) => {
      await measure(name, page);
      done.add(name);
    });
  } catch (error) {
    if (!(error instanceof Unreachable)) throw error;
    for (const name of names) if (!done.has(name)) skip(name, error.message);
  }
}

for (const route of ROUTES) await measure(route, await new Visitor().get(route));
await measureCustomerPages();
await measureAdminPages();

console.log(
  `Page weight of ${BASE} in KB. Budgets, in brotli as sent: HTML + CSS <= ${CRITICAL_BUDGET / KB} KB; no script and one request without a form, JS <= ${JS_BUDGET.form / KB} KB with one (an intake step counts its neighbours' modules)`,
);
console.log(`${"route".padEnd(34)} type   html     br   css br files     js   gzip     br /budget   html+css`);
for (const row of rows) console.log(row);
const total = ROUTES.length + CUSTOMER_PAGES.length + ADMIN_PAGES.length;
if (failed) {
  console.error(`${failed} page(s) over budget${strict ? " or not reached" : ""}`);
  process.exit(1);
}
console.log(
  `${measured === total ? "All" : `${measured} of`} ${total} pages are within the budgets${measured === total ? "" : ` (${total - measured} skipped, see above)`}.`,
);
