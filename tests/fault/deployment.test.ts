import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newTotpSecret, totpCode } from "~/domain/totp";
import { createUser } from "~/server/accounts.server";
import { Order, RateLimitHit } from "~/server/models/index.server";
import { CHECKOUT_LIMIT, rateLimitSubject } from "~/server/rate-limit.server";
import { enableSecondFactor } from "~/server/two-factor.server";
import { startAppProcess, type AppProcess } from "../support/app-process";
import { useTestDatabase } from "../support/db";
import { messageText, uniqueAddress, waitForMessages } from "../support/mailpit";
import { privatePort, stopProcess, waitForPort } from "../support/processes";
import { sessionEvent, signedDelivery } from "../support/stripe-events";

// The site as deploy/ runs it: the production build (NODE_ENV=production, every secret set, no stand-in:
// Mailpit as the SMTP provider, versitygw as S3, stripe-mock as Stripe) behind Debian's Caddy with
// deploy/Caddyfile, then behind Debian's nginx with deploy/nginx.conf, each over HTTPS with a certificate
// from Caddy's internal CA (`local_certs`), which the client here trusts (it is passed as the CA, not ignored).
// The files are used as shipped, with the domain, the ports and the certificate paths put in.
const ROOT = path.resolve(__dirname, "../..");
const TWO_FACTOR_SECRET = "deployment-test-two-factor-secret-0123456789";
// The admin's key is sealed here, by this process, as the app will unseal it.
process.env.TWO_FACTOR_SECRET = TWO_FACTOR_SECRET;

useTestDatabase();
const appPort = privatePort(29000);
const httpsPort = privatePort(30000);
const httpPort = privatePort(31000);
const SITE = `https://localhost:${httpsPort}`;
let dir = "";
let app: AppProcess;
let proxy: ChildProcess | undefined;
let proxyOutput = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "deployment-"));
  app = await startAppProcess({
    port: appPort,
    env: {
      MONGODB_URI: process.env.MONGODB_URI!,
      APP_URL: SITE,
      TWO_FACTOR_SECRET,
      LOCAL_STANDINS: "",
      TRUST_PROXY: "", // the default: one proxy
      STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY!,
      STRIPE_API_BASE: process.env.STRIPE_API_BASE!,
    },
  });
}, 120_000);
afterAll(async () => {
  if (proxy) await stopProcess(proxy);
  await app?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts a proxy and waits for its HTTPS port (its output kept for a failure's message). */
async function startProxy(command: string, args: string[], env: Record<string, string> = {}) {
  proxyOutput = "";
  proxy = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  proxy.stdout!.on("data", (c: Buffer) => (proxyOutput += c));
  proxy.stderr!.on("data", (c: Buffer) => (proxyOutput += c));
  await waitForPort(httpsPort, 30_000).catch((error: Error) => {
    throw new Error(`${command} did not listen: ${error.message}\n${proxyOutput}`);
  });
}
async function stopProxy() {
  if (proxy) await stopProcess(proxy);
  proxy = undefined;
}

/** Caddy's internal CA: its root (the client trusts it) and the certificate it issued for localhost. */
const caddyStorage = () => path.join(dir, "caddy");
const caRoot = () => path.join(caddyStorage(), "pki/authorities/local/root.crt");
const leaf = (ext: "crt" | "key") => path.join(caddyStorage(), `certificates/local/localhost/localhost.${ext}`);

async function untilExists(file: string) {
  const until = Date.now() + 30_000;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} did not appear:\n${proxyOutput}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/**
 * A browser without JavaScript, over HTTPS through the proxy: it trusts Caddy's CA, keeps cookies, connects
 * from an address of its own on the loopback network and sends an X-Forwarded-For of its own making, which
 * no proxy may pass on as the visitor's address.
 */
async function visitor() {
  const ca = await readFile(caRoot());
  const from = `127.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
  const cookies = new Map<string, string>();
  const setCookies: string[] = [];
  const request = (
    pathname: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string>; body?: string } = {},
  ) =>
    new Promise<Answer>((resolve, reject) => {
      const body = init.form ? new URLSearchParams(init.form).toString() : init.body;
      const headers: Record<string, string> = {
        "x-forwarded-for": "203.0.113.66",
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {}),
        ...(init.form
          ? { "content-type": "application/x-www-form-urlencoded", origin: SITE, "sec-fetch-site": "same-origin" }
          : {}),
        ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}),
        ...init.headers,
      };
      const req = https.request(
        {
          host: "localhost",
          port: httpsPort,
          path: pathname,
          method: init.method ?? (body ? "POST" : "GET"),
          headers,
          ca,
          localAddress: from,
          servername: "localhost",
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            for (const line of res.headers["set-cookie"] ?? []) {
              setCookies.push(line);
              const [pair] = line.split(";");
              const [name, ...value] = pair.split("=");
              if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name.trim());
              else cookies.set(name.trim(), value.join("="));
            }
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { from, request, setCookies };
}

/** Checkout, a signed webhook, an intake step, an admin's sign-in with a second factor: the site's working day. */
async function walk(proxyName: string) {
  const browser = await visitor();

  // The home page over HTTPS, with HSTS and the upgrade of every request to https.
  const home = await browser.request("/");
  expect(home.status, proxyName).toBe(200);
  expect(home.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  expect(home.headers["content-security-policy"]).toContain("upgrade-insecure-requests");

  // Checkout: the form post (its Origin the public site's) starts a Stripe Checkout Session on stripe-mock.
  const email = uniqueAddress(`deploy-${proxyName}`);
  const paying = await browser.request("/checkout", { form: { email, terms: "on", intent: "pay" } });
  expect(paying.status, paying.text).toBe(303);
  expect(String(paying.headers.location)).toMatch(/^https:\/\//);
  // The rate limit counted the visitor's own address (the proxy's X-Forwarded-For entry), never the one it wrote.
  const window = Math.floor(Date.now() / CHECKOUT_LIMIT.windowMs);
  expect(
    await RateLimitHit.exists({ key: `${rateLimitSubject(CHECKOUT_LIMIT, browser.from)}:${window}` }),
  ).toBeTruthy();
  expect(
    await RateLimitHit.exists({ key: `${rateLimitSubject(CHECKOUT_LIMIT, "203.0.113.66")}:${window}` }),
  ).toBeNull();

  // Stripe's signed webhook through the proxy pays the order; the e-mail goes out by SMTP with links to the site.
  const order = await Order.findOne({ email }).lean();
  expect(order?.stripe_session_id).toBeTruthy();
  const event = sessionEvent("checkout.session.completed", {
    id: order!.stripe_session_id!,
    orderId: order!._id,
    amount: order!.amount_total,
  });
  const delivery = signedDelivery(event);
  const webhook = await browser.request("/webhooks/stripe", {
    method: "POST",
    body: delivery.body,
    headers: delivery.headers,
  });
  expect(webhook.status, webhook.text).toBe(200);
  expect((await Order.findById(order!._id).lean())?.status).toBe("paid");
  const [mail] = await waitForMessages(email, 1, 30_000);
  expect(mail, "the payment e-mail").toBeTruthy();
  const { Text } = await messageText(mail.ID);
  const intakeLink = Text.match(new RegExp(`${SITE}/intake-form\\?token=[\\w-]+`))?.[0];
  expect(intakeLink, Text).toBeTruthy();

  // The intake link, then a step's form post, saved.
  const opened = await browser.request(intakeLink!.slice(SITE.length));
  expect([302, 303]).toContain(opened.status);
  const step = await browser.request("/intake-form/1", {
    form: { intent: "stay", businessName: `Deployed ${proxyName}`, contactEmail: email, contactPhone: "0400 000 000" },
  });
  expect(step.status, step.text).toBe(303);
  const stepPage = await browser.request("/intake-form/1");
  expect(stepPage.text.includes(`Deployed ${proxyName}`), "the step shows what was saved").toBe(true);

  // An admin signs in with a password, then a code from the authenticator app.
  const admin = await visitor();
  const adminEmail = uniqueAddress(`deploy-admin-${proxyName}`);
  const password = `pw-${Date.now()}-deployment`;
  const created = await createUser({ email: adminEmail, password, admin: true, verified: true });
  const key = newTotpSecret();
  await enableSecondFactor(created.id, key);
  const signIn = await admin.request("/auth", {
    form: { intent: "sign-in", email: adminEmail, password, redirectTo: "/admin" },
  });
  expect([302, 303], signIn.text).toContain(signIn.status);
  expect(signIn.headers.location).toBe("/auth/two-factor?redirectTo=%2Fadmin");
  const verified = await admin.request("/auth/two-factor", {
    form: { intent: "verify", code: totpCode(key, Date.now()), redirectTo: "/admin" },
  });
  expect([302, 303]).toContain(verified.status);
  expect(verified.headers.location).toBe("/admin");
  expect((await admin.request("/admin")).status).toBe(200);
  // The session remembers the address the app saw: the visitor's, as the rate limits see it.
  const security = await admin.request("/admin/security");
  const sessions = security.text.replaceAll("<!-- -->", "");
  expect(sessions.includes(`From ${admin.from}.`), `the session's address is ${admin.from}`).toBe(true);
  expect(sessions.includes("203.0.113.66"), "the address the visitor wrote is nowhere").toBe(false);

  // Every cookie the site set on the way is Secure (and HttpOnly).
  const cookies = [...browser.setCookies, ...admin.setCookies];
  expect(cookies.length).toBeGreaterThan(2);
  for (const cookie of cookies) expect(cookie, cookie).toMatch(/;\s*Secure/i);
}

/** deploy/Caddyfile as shipped, on this test's domain, ports and app, with the certificate from Caddy's own CA. */
async function startCaddy() {
  const shipped = await readFile(path.join(ROOT, "deploy/Caddyfile"), "utf8");
  const site = shipped.replaceAll("example.com.au", "localhost").replaceAll("127.0.0.1:3000", `127.0.0.1:${appPort}`);
  expect(site).not.toBe(shipped);
  const config = path.join(dir, "Caddyfile");
  await writeFile(
    config,
    [
      "{",
      "\tadmin off",
      "\tlocal_certs",
      "\tskip_install_trust",
      `\thttp_port ${httpPort}`,
      `\thttps_port ${httpsPort}`,
      `\tstorage file_system ${caddyStorage()}`,
      "}",
      site,
    ].join("\n"),
  );
  await startProxy("caddy", ["run", "--config", config, "--adapter", "caddyfile"], {
    XDG_DATA_HOME: path.join(dir, "xdg-data"),
    XDG_CONFIG_HOME: path.join(dir, "xdg-config"),
  });
  await untilExists(leaf("key"));
}

/** deploy/nginx.conf as shipped, on this test's domain, ports and app, with the certificate Caddy's CA issued. */
async function startNginx() {
  const shipped = await readFile(path.join(ROOT, "deploy/nginx.conf"), "utf8");
  const server = shipped
    .replaceAll("/etc/letsencrypt/live/example.com.au/fullchain.pem", leaf("crt"))
    .replaceAll("/etc/letsencrypt/live/example.com.au/privkey.pem", leaf("key"))
    .replaceAll("example.com.au", "localhost")
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${appPort}`)
    .replace(/^\s*listen \[::\].*$/gm, "") // this machine's loopback is enough
    .replaceAll("listen 80;", `listen 127.0.0.1:${httpPort};`)
    .replaceAll("listen 443 ", `listen 127.0.0.1:${httpsPort} `);
  expect(server).not.toContain("example.com.au");
  const prefix = path.join(dir, "nginx");
  await mkdir(path.join(prefix, "logs"), { recursive: true });
  const config = path.join(prefix, "nginx.conf");
  await writeFile(
    config,
    [
      "worker_processes 1;",
      `pid ${prefix}/nginx.pid;`,
      `error_log ${prefix}/logs/error.log;`,
      "events { worker_connections 256; }",
      "http {",
      `  access_log ${prefix}/logs/access.log;`,
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${prefix}/${t};`),
      server,
      "}",
    ].join("\n"),
  );
  // As root, the workers would run as nobody; they need nothing the master has not opened.
  await startProxy("nginx", ["-c", config, "-p", prefix, "-e", `${prefix}/logs/error.log`, "-g", "daemon off;"]);
}

describe("the deployment in deploy/, over HTTPS, on real services", () => {
  it(
    "behind Caddy (deploy/Caddyfile): checkout, a signed webhook, an intake step and a two-factor sign-in",
    { timeout: 180_000 },
    async () => {
      await startCaddy();
      await walk("caddy");
      await stopProxy();
    },
  );

  it("behind nginx (deploy/nginx.conf): the same walk", { timeout: 180_000 }, async () => {
    if (!existsSync(leaf("crt"))) await startCaddy().then(stopProxy); // the certificate comes from Caddy's CA
    await startNginx();
    await walk("nginx");
    await stopProxy();
  });

  it("takes a form post from the public origin whatever Host the proxy passes on, and no other origin", async () => {
    const post = (origin: string) =>
      fetch(`${app.url}/checkout`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin,
          "sec-fetch-site": "same-origin",
          "x-forwarded-for": "10.1.2.3",
        },
        body: new URLSearchParams({ email: uniqueAddress("host-rewritten"), terms: "on", intent: "pay" }),
      });
    // The Host here is 127.0.0.1:<port>, as a proxy that rewrites Host sends it.
    expect((await post(SITE)).status).toBe(303);
    for (const origin of ["https://evil.example", app.url, "null"])
      expect((await post(origin)).status, origin).toBe(403);
  });
  it("counts the visitor under the address TRUST_PROXY says to believe: one proxy, or a CDN and then a proxy", async () => {
    const behindCdn = await startAppProcess({
      port: privatePort(32000),
      env: { MONGODB_URI: process.env.MONGODB_URI!, APP_URL: SITE, TWO_FACTOR_SECRET, TRUST_PROXY: "2" },
    });
    try {
      // X-Forwarded-For as the proxy hands it on behind a CDN: the visitor (as the CDN saw it), then the CDN's
      // own address (as the proxy saw it). A visitor's own entry would come before both and is never believed.
      const forwarded = "192.0.2.99, 198.51.100.7, 203.0.113.9";
      const window = Math.floor(Date.now() / CHECKOUT_LIMIT.windowMs);
      const under = async (address: string) =>
        Boolean(await RateLimitHit.exists({ key: `${rateLimitSubject(CHECKOUT_LIMIT, address)}:${window}` }));
      const counted = async (url: string) => {
        const email = uniqueAddress("trust-proxy");
        const answer = await fetch(`${url}/checkout`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwarded },
          body: new URLSearchParams({ email, terms: "on", intent: "pay" }),
        });
        expect(answer.status).toBe(303);
        return { cdnVisitor: await under("198.51.100.7"), lastHop: await under("203.0.113.9") };
      };
      expect(await counted(app.url)).toEqual({ cdnVisitor: false, lastHop: true }); // TRUST_PROXY unset: 1
      expect(await counted(behindCdn.url)).toEqual({ cdnVisitor: true, lastHop: true });
      expect(await under("192.0.2.99")).toBe(false);
    } finally {
      await behindCdn.stop();
    }
  });
});
