// Shared by the benchmark and fault scripts in this folder: the local services,
// the built app started as production runs it (loopback only), a paid order
// bought the way a customer buys one, and the statistics every script prints.
// Nothing here runs unbounded: every wait has a deadline and every loop a count.
import { execFileSync, spawn } from "node:child_process";
import { createHash, createHmac, randomBytes, scryptSync } from "node:crypto";
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
/**
 * The bench app listens beside the test app (3100 + offset), never on it nor on another
 * checkout's: offsets are multiples of 50 (650 beside 700 put 3150 + 650 on the other's 3800),
 * so the bench takes 3125 + offset (and the next port, throughput's bare page).
 */
export const APP_PORT = 3125 + OFFSET;
const HOST = "127.0.0.1";

/**
 * BENCH_SMOKE=1 (npm run bench:smoke, in CI): each script runs once, at its smallest size, for a
 * few seconds, so that none can rot; its figures mean nothing then.
 */
export const SMOKE = process.env.BENCH_SMOKE === "1";

/** Debian's jemalloc (apt-get install libjemalloc2), which the start scripts preload when it is there. */
export const JEMALLOC = `/usr/lib/${os.arch() === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/libjemalloc.so.2`;

/**
 * A numeric knob from the environment (`name`, else `fallback`), held within [min, max]; under
 * BENCH_SMOKE=1 it is `smoke` when one is given.
 */
export function knob(name, fallback, min, max, smoke) {
  if (SMOKE && smoke !== undefined) return smoke;
  return Math.min(Math.max(Number(process.env[name] ?? fallback), min), max);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const say = (...parts) => console.error(`[${path.basename(process.argv[1], ".mjs")}]`, ...parts);

/** Where and when a figure was measured: printed at the top of every report. */
export function machine() {
  const cpus = os.cpus();
  let chromium = "";
  try {
    chromium = execFileSync("/usr/bin/chromium", ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    chromium = "chromium not found";
  }
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  return `${new Date().toISOString()} | ${cpus.length} x ${cpus[0]?.model ?? "cpu"} | ${(os.totalmem() / 2 ** 30).toFixed(1)} GB | node ${process.version} | ${chromium} | load ${load}`;
}

/**
 * The app's CPU time so far (user + system), in ms, from Linux /proc: its own, its children's that ended, and its
 * children's still running (the image worker, scripts/image-worker.mjs, decodes apart from the app).
 */
export function cpuMs(pid) {
  // Clock ticks of 1/100 s (USER_HZ on Linux).
  const ticks = (fields, from) => fields.slice(from, from + 2).reduce((sum, value) => sum + Number(value), 0);
  const own = statFields(pid);
  const running = childrenOf(pid).reduce((sum, child) => sum + ticks(statFields(child, true) ?? [0, 0], 11), 0);
  return ((ticks(own, 11) + ticks(own, 13) + running) * 1000) / 100;
}

/** The pid of the test services' FerretDB (scripts/services.sh writes it), or null when another database is used. */
export function testDatabasePid() {
  if (process.env.BENCH_MONGODB_URI) return null;
  try {
    return Number(readFileSync(path.join(ROOT, "data/test/run/mongo.pid"), "utf8").trim()) || null;
  } catch {
    return null;
  }
}

/** The processes `pid` started that still run (the app's image worker). */
function childrenOf(pid) {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry) && Number(statFields(entry, true)?.[1]) === pid);
}

/** The fields of /proc/PID/stat after the command's name (state, ppid, ...); null when it has gone (`mayBeGone`). */
function statFields(pid, mayBeGone = false) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch (error) {
    if (mayBeGone) return null;
    throw error;
  }
}

/** Resident memory of a process and the processes it started (the app and its image worker), in MB; NaN when gone. */
function treeRssMb(pid) {
  const rss = (of) => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${of}/status`, "utf8"))?.[1] ?? 0) / 1024;
    } catch {
      return of === pid ? NaN : 0;
    }
  };
  return childrenOf(pid).reduce((sum, child) => sum + rss(child), rss(pid));
}

/* Statistics: medians and spread, never a single run. */

export function quantile(values, q) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
export const median = (values) => quantile(values, 0.5);
/** "median (min-max)" with the given digits. */
export function spread(values, digits = 0) {
  if (!values.length) return "n/a";
  const f = (n) => n.toFixed(digits);
  return `${f(median(values))} (${f(Math.min(...values))}-${f(Math.max(...values))})`;
}

/* The test services (FerretDB, Mailpit, versitygw, stripe-mock) on this checkout's port offset. */

function services(...args) {
  return execFileSync("bash", ["scripts/services.sh", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/**
 * Starts the test-profile services unless they already run (then leaves them
 * alone) and returns their variables and a stop function for what it started.
 */
export function startServices() {
  const running = services("status", "test").includes("mongo: running");
  if (!running) services("start", "test");
  const env = Object.fromEntries(
    services("env", "test")
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  return { env, stop: () => (running ? undefined : services("stop", "test")) };
}

/** Builds the app unless a build exists (BENCH_BUILD=1 forces a fresh one). */
export function ensureBuild() {
  if (process.env.BENCH_BUILD === "1" || !existsSync(path.join(ROOT, "build/index.js"))) {
    say("building the app (npm run build)...");
    execFileSync("npm", ["run", "--silent", "build"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    // Once a run: a later call, and a child process started from here, take this build.
    process.env.BENCH_BUILD = "0";
  }
}

/** Polls url until it answers 200, or throws after timeoutMs. */
export async function waitForOk(url, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer in ${timeoutMs / 1000} s`);
}

export const WEBHOOK_SECRET = "whsec_local_test_secret";

/**
 * Starts the built app with `node scripts/server.mjs` in production mode against
 * the services, on loopback, with a database of its own. Returns its URL, pid,
 * a reader for its resident memory and stop().
 */
/** The bench app's secrets: a script that signs a session for it in-process uses the same. */
export const BENCH_SECRETS = {
  SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
  TOKEN_SECRET: "bench-only-token-secret-fedcba9876543210xyz",
  TWO_FACTOR_SECRET: "bench-only-two-factor-secret-0123456789xyz",
};

/**
 * Starts the built app as production runs it, on loopback, against the services and `database`.
 * `startTimeoutMs`: how long it may take to answer /healthz (longer on a machine under load).
 * @param {{ serviceEnv: Record<string, string>, port?: number, database?: string, env?: Record<string, string>, entry?: string, cwd?: string, nodeArgs?: string[], startTimeoutMs?: number }} options
 */
export async function startApp({
  serviceEnv,
  port = APP_PORT,
  database = "bench",
  env = {},
  entry = "scripts/server.mjs",
  cwd = ROOT,
  nodeArgs = [],
  startTimeoutMs = 60_000,
} = {}) {
  const mongo = serviceEnv.MONGODB_URI.slice(0, serviceEnv.MONGODB_URI.lastIndexOf("/"));
  const url = `http://${HOST}:${port}`;
  // Another process on the port would answer /healthz for us, and every figure would be its own.
  if (
    await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    )
  ) {
    throw new Error(`something already listens on ${url} (an app left from an earlier run?); stop it first`);
  }
  mkdirSync(path.join(ROOT, "data/bench"), { recursive: true });
  const logFile = path.join(ROOT, "data/bench", `app-${port}.log`);
  // The file is kept across runs and restarts: this start's lines are those after its size now.
  const logFrom = existsSync(logFile) ? statSync(logFile).size : 0;
  // What was read of this start's lines: each poll reads only what the app wrote since the last.
  const lines = [];
  const decoder = new StringDecoder("utf8");
  let readTo = logFrom;
  let partial = "";
  /** This start's log entries of `event` (the app logs one JSON object a line), oldest first. */
  const logged = (event) => {
    const fd = openSync(logFile, "r");
    try {
      const size = fstatSync(fd).size;
      if (size > readTo) {
        const chunk = Buffer.alloc(size - readTo);
        readTo += readSync(fd, chunk, 0, chunk.length, readTo);
        const text = partial + decoder.write(chunk);
        const complete = text.split("\n");
        partial = complete.pop();
        lines.push(...complete);
      }
    } finally {
      closeSync(fd);
    }
    return lines.filter((line) => line.includes(`"event":"${event}"`)).map((line) => JSON.parse(line));
  };
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd,
    stdio: ["ignore", openSync(logFile, "a"), openSync(logFile, "a")],
    env: {
      ...process.env,
      ...serviceEnv,
      NODE_ENV: "production",
      HOST,
      PORT: String(port),
      APP_URL: url,
      MONGODB_URI: `${mongo}/${database}`,
      ...BENCH_SECRETS,
      STRIPE_PRICE_ESSENTIALS: "price_bench_essentials",
      STRIPE_PRICE_PROFESSIONAL: "price_bench_professional",
      STRIPE_PRICE_ENTERPRISE: "price_bench_enterprise",
      CRON_SECRET: "bench-cron-secret",
      BUSINESS_NAME: "Bench Websites",
      BUSINESS_ABN: "51 824 753 556",
      OUTBOX_POLL_MS: "500",
      OUTBOX_BACKOFF_MS: "500",
      ...env,
    },
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await Promise.race([
    waitForOk(`${url}/healthz`, startTimeoutMs),
    exited.then(() => Promise.reject(new Error(`the app exited; see ${logFile}`))),
  ]).catch((error) => {
    child.kill("SIGKILL"); // never left behind on the port, answering the next run's checks
    throw error;
  });
  return {
    url,
    pid: child.pid,
    logFile,
    logged,
    /**
     * Waits for this start's first entry of `event` logged at or after `since` (an ISO time), and returns it:
     * "order_digest.rebuilt" after the app's background pass over every order, "order_digest.snapshot_written".
     */
    async loggedSince(event, since = "", timeoutMs = 600_000) {
      for (let waited = 0; waited < timeoutMs; waited += 250) {
        const entry = logged(event).find((e) => e.time >= since);
        if (entry) return entry;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(`the app logged no ${event} within ${timeoutMs / 60_000} minutes`);
    },
    /** Resident memory of the app's processes in MB (Linux /proc): the app and its image worker. */
    rssMb: () => treeRssMb(child.pid),
    /** SIGTERM, then SIGKILL after `graceMs` (an app writing its CPU profile on exit needs longer). */
    async stop({ graceMs = 5_000 } = {}) {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      // The grace timer is cleared once the app has gone: left running it held the script open
      // (profile.mjs's 120 s grace kept every smoke run waiting two minutes after its figures).
      let grace;
      const killed = new Promise((resolve) => (grace = setTimeout(resolve, graceMs))).then(() => child.kill("SIGKILL"));
      await Promise.race([exited, killed]);
      clearTimeout(grace);
    },
  };
}

/**
 * What a benchmark starts with: the test services (started unless they run), a build, the app on
 * its own `database` and, unless `withDb` is false, a direct connection to that database.
 * `serviceEnv` may rewrite the services' variables (another database server, say); the other
 * options go to startApp. `stop()` undoes what was started, in reverse, dropping the database
 * first when `drop` is set; it is called already when the setup itself fails.
 * @param {{ database: string, serviceEnv?: (env: Record<string, string>) => Record<string, string>, withDb?: boolean, drop?: boolean } & Record<string, unknown>} options
 */
export async function startBench({
  database,
  serviceEnv: pickEnv = (env) => env,
  withDb = true,
  drop = false,
  ...appOptions
}) {
  const services = startServices();
  const serviceEnv = pickEnv(services.env);
  let app = null;
  let conn = null;
  const stop = async ({ graceMs } = {}) => {
    if (conn && drop) await conn.db.dropDatabase().catch(() => {});
    await conn?.close();
    await app?.stop({ graceMs });
    services.stop();
  };
  try {
    ensureBuild();
    app = await startApp({ serviceEnv, database, ...appOptions });
    if (withDb) conn = await openDb(serviceEnv, database);
  } catch (error) {
    await stop();
    throw error;
  }
  return { serviceEnv, app, db: conn?.db, stop };
}

/** Step 1 of the intake as a customer fills it in (the field names of app/domain/intake/schemas.ts). */
export const STEP_ONE = {
  businessName: "Bench Plumbing",
  contactEmail: "jo@bench.example",
  contactPhone: "0400 000 000",
  businessType: "trades",
  businessDescription: "Plumbing for the Northern Rivers, day and night.",
};

/** A made-up visitor address (the app trusts one proxy in production, as behind a load balancer). */
export const visitor = () =>
  `10.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}`;

/** The cookie header a response asks the browser to keep, merged into `jar` (a Map). */
export function keepCookies(res, jar) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

export const form = (fields) => new URLSearchParams(fields).toString();

/** A form post as a browser without JavaScript sends it; answers are not followed. */
export function post(url, fields, { cookie = "", address = visitor() } = {}) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": address,
      cookie,
    },
    body: form(fields),
    signal: AbortSignal.timeout(30_000),
  });
}

/**
 * A multipart post of `form` (FormData) as a browser encodes and sends it, over node:http: fetch gives up on an
 * answer after 300 s. Resolves to its status, its body as text and its time in seconds (from the first byte sent).
 */
export async function postMultipart(url, form, { cookie = "", address = visitor() } = {}) {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": encoded.headers.get("content-type"),
        "content-length": body.length,
        "sec-fetch-site": "same-origin",
        "x-forwarded-for": address,
        cookie,
      },
    });
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          text: Buffer.concat(chunks).toString("utf8"),
          seconds: (performance.now() - started) / 1000,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Signs a Stripe event the way Stripe does (t=..., v1=HMAC-SHA256). */
export function stripeSignature(payload, secret = WEBHOOK_SECRET) {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex")}`;
}

/**
 * Buys the $300 website as a customer does against the production app: the
 * checkout form, then Stripe's signed webhook, then the e-mailed link read back
 * from Mailpit. Returns the intake link (with its token). The database is read
 * only to learn the order id Stripe would carry in the session's metadata.
 */
export async function buyWebsite(app, serviceEnv, db, email = `bench-${randomBytes(5).toString("hex")}@example.test`) {
  const res = await post(`${app.url}/checkout`, { email, terms: "on", intent: "pay" });
  if (res.status !== 303) throw new Error(`checkout answered ${res.status}`);
  const order = await db.collection("orders").findOne({ email }, { sort: { created_at: -1 } });
  if (!order) throw new Error(`no order for ${email}`);
  const payload = JSON.stringify({
    id: `evt_bench_${randomBytes(8).toString("hex")}`,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: order.stripe_session_id,
        object: "checkout.session",
        amount_total: order.amount_total,
        payment_status: "paid",
        payment_intent: "pi_bench",
        client_reference_id: String(order._id),
        metadata: { order_id: String(order._id) },
      },
    },
  });
  const hook = await fetch(`${app.url}/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": stripeSignature(payload) },
    body: payload,
  });
  if (hook.status !== 200) throw new Error(`webhook answered ${hook.status}`);
  return { email, orderId: String(order._id), link: await intakeLinkFromMail(serviceEnv, email) };
}

/** Polls Mailpit (up to 20 s) for the e-mail to `email` and returns the intake link in it. */
export async function intakeLinkFromMail(serviceEnv, email) {
  const api = serviceEnv.MAILPIT_API_URL;
  for (let i = 0; i < 100; i++) {
    const found = await (await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`)).json();
    if (found.messages?.length) {
      const text = (await (await fetch(`${api}/api/v1/message/${found.messages[0].ID}`)).json()).Text;
      const link = /https?:\/\/\S+\/intake-form\?token=[A-Za-z0-9_-]+/.exec(text)?.[0];
      if (link) return link;
    }
    await sleep(200);
  }
  throw new Error(`no intake e-mail reached ${email} in 20 s`);
}

/**
 * A customer of the bench app who bought the website (buyWebsite) and opened the e-mailed intake
 * link: the order's email, orderId and link, and the intake session `cookie`.
 */
export async function intakeCustomer({ app, serviceEnv, db }) {
  const bought = await buyWebsite(app, serviceEnv, db);
  return { ...bought, cookie: await openIntake(bought.link.replace(/^https?:\/\/[^/]+/, app.url)) };
}

/** Opens the e-mailed link as a browser would and returns the intake session cookie. */
export async function openIntake(link) {
  const jar = new Map();
  const res = await fetch(link, { redirect: "manual" });
  if (res.status !== 302 && res.status !== 303) throw new Error(`intake link answered ${res.status}`);
  return keepCookies(res, jar);
}

/** A paid order whose intake is open at step 4 (the uploads), and the customer's intake session cookie. */
export async function customerAtStep4(bench) {
  const { orderId, cookie } = await intakeCustomer(bench);
  const step1 = await post(`${bench.app.url}/intake-form/1`, { ...STEP_ONE, intent: "next" }, { cookie });
  if (step1.status !== 303) throw new Error(`step 1 answered ${step1.status}`);
  // Steps 2 and 3 are not what is measured: the order may jump to step 4.
  await bench.db.collection("rapid_website_submissions").updateOne({ _id: orderId }, { $set: { furthest_step: 4 } });
  return cookie;
}

/** The services' bucket, made when they were started fresh (the test suite's global setup makes it otherwise). */
export async function ensureBucket(env) {
  const { CreateBucketCommand, HeadBucketCommand, S3Client } = await import("@aws-sdk/client-s3");
  const s3 = new S3Client({
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
  });
  try {
    await s3.send(new HeadBucketCommand({ Bucket: env.S3_BUCKET }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: env.S3_BUCKET }));
  } finally {
    s3.destroy();
  }
}

/* Sign-in time beside other work (uploads.mjs, image-attack.mjs): how long a customer waits to sign in. */

const SIGN_IN_PASSWORD = "bench-sign-in-password";
/**
 * Accounts signed in to in turn, at most one sign-in every SIGN_IN_PACE_MS: 30 tries at one account in 15 minutes
 * slow it (on purpose, 2 s a try), which would be measured as the other work's cost, so spread them.
 */
const SIGN_IN_ACCOUNTS = 300;
const SIGN_IN_PACE_MS = 250;

/** Makes the accounts signIn uses in the bench database, unless they are there (the app's scrypt password format, made once). */
export async function seedSignInAccounts(db) {
  if (await db.collection("users").countDocuments({ email: "bench-signin-0@example.test" })) return;
  const salt = randomBytes(16);
  const hash = `scrypt$${salt.toString("base64url")}$${scryptSync(SIGN_IN_PASSWORD, salt, 64).toString("base64url")}`;
  const now = new Date();
  const { insertedIds } = await db.collection("users").insertMany(
    Array.from({ length: SIGN_IN_ACCOUNTS }, (_, i) => ({
      email: `bench-signin-${i}@example.test`,
      password_hash: hash,
      full_name: null,
      email_verified_at: now,
      two_factor_enabled_at: null,
      created_at: now,
      updated_at: now,
    })),
  );
  // Each listed under its address, as the User model's hooks list an account (app/server/models/user.server.ts).
  await db.collection("email_users").insertMany(
    Object.entries(insertedIds).map(([i, id]) => ({
      _id: `${createHash("sha256").update(`bench-signin-${i}@example.test`).digest("hex")}:0`,
      member: String(id),
      created_at: now,
    })),
  );
}

let signInTurn = 0;
/**
 * Sign-ins from a process of their own (sign-in-probe.mjs), started now at this process's priority: `count(n)` signs
 * in n times; `start()`, then `stop()`, signs in over and over between the two; each resolves to the sign-ins' times
 * in ms. `close()` ends it.
 */
export function signInProbe(app) {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/bench/sign-in-probe.mjs"), app.url], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let buffered = "";
  const waiting = [];
  child.stdout.setEncoding("utf8").on("data", (text) => {
    buffered += text;
    for (let end; (end = buffered.indexOf("\n")) !== -1; buffered = buffered.slice(end + 1))
      waiting.shift()?.(JSON.parse(buffered.slice(0, end)));
  });
  const ask = (line) =>
    new Promise((resolve) => {
      waiting.push(resolve);
      child.stdin.write(`${line}\n`);
    });
  return {
    count: (n) => ask(`count ${n}`),
    start: () => child.stdin.write("start\n"),
    stop: () => ask("stop"),
    close: () => child.stdin.end(),
  };
}
/** One sign-in as a browser without JavaScript sends it, to the next seeded account; its time in ms (throws unless it signed in). */
export async function signIn(app) {
  const email = `bench-signin-${signInTurn++ % SIGN_IN_ACCOUNTS}@example.test`;
  const started = performance.now();
  const res = await post(`${app.url}/auth`, {
    intent: "sign-in",
    email,
    password: SIGN_IN_PASSWORD,
    redirectTo: "/dashboard",
  });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  const took = performance.now() - started;
  await sleep(Math.max(0, SIGN_IN_PACE_MS - took));
  return took;
}

/** A direct connection to the bench database (for setup and checks, never for the measured path). */
export async function openDb(serviceEnv, database = "bench") {
  const { MongoClient } = await import("mongodb");
  const mongo = serviceEnv.MONGODB_URI.slice(0, serviceEnv.MONGODB_URI.lastIndexOf("/"));
  const client = await new MongoClient(`${mongo}/${database}`, { serverSelectionTimeoutMS: 5_000 }).connect();
  return { client, db: client.db(database), close: () => client.close() };
}

/* Chromium (Debian's, never a downloaded one) through playwright-core. */

export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
}

/** Network profiles: round trip, download and upload in bits per second. */
export const PROFILES = {
  "lighthouse-mobile": { latencyMs: 150, downBps: 1.6 * 1024 * 1024, upBps: 750 * 1024 },
  "sky-muster": { latencyMs: 650, downBps: 10 * 1024 * 1024, upBps: 1 * 1024 * 1024 },
};

/**
 * Loads url in a fresh context (cold cache) and returns what a visitor waited
 * for and what crossed the wire: first and largest contentful paint and the
 * load event (ms), and per resource type the requests and their encoded
 * (compressed) bytes. `profile` throttles the network and slows the CPU 4x.
 */
export async function loadPage(
  browser,
  url,
  { js = true, profile = null, cookie = null, viewport = { width: 390, height: 844 } } = {},
) {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport });
  if (cookie) {
    const origin = new URL(url).origin;
    await context.addCookies(
      cookie.split("; ").map((pair) => ({
        name: pair.slice(0, pair.indexOf("=")),
        value: pair.slice(pair.indexOf("=") + 1),
        url: origin,
      })),
    );
  }
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    if (profile) await throttle(cdp, profile, { cpuRate: 4 });
    // Largest contentful paint from the browser's own timeline: it works with scripts off too.
    const lcpTimes = [];
    cdp.on("PerformanceTimeline.timelineEventAdded", ({ event }) => {
      if (event.lcpDetails) lcpTimes.push((event.lcpDetails.renderTime || event.lcpDetails.loadTime) * 1000);
    });
    await cdp.send("PerformanceTimeline.enable", { eventTypes: ["largest-contentful-paint"] });
    const finished = [];
    page.on("requestfinished", (request) => finished.push(request));
    const response = await page.goto(url, { waitUntil: "load", timeout: 90_000 });
    if (!response?.ok()) throw new Error(`${url}: HTTP ${response?.status()}`);
    // Synchronous reads only (with scripts off a page cannot run timers or promises), polled
    // for up to 10 s: a small page can fire its load event before its first paint.
    let timing;
    for (let i = 0; i < 100; i++) {
      timing = await page.evaluate(() => ({
        origin: performance.timeOrigin,
        fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
        load: performance.getEntriesByType("navigation")[0].loadEventEnd,
        // Where the wait goes: the HTML's first byte, and the last stylesheet's end (paint waits for it).
        ttfb: performance.getEntriesByType("navigation")[0].responseStart,
        cssEnd: Math.max(
          0,
          ...performance
            .getEntriesByType("resource")
            .filter((r) => r.initiatorType === "link" && /\.css(\?|$)/.test(r.name))
            .map((r) => r.responseEnd),
        ),
      }));
      if (!Number.isNaN(timing.fcp) && lcpTimes.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const lcp = lcpTimes.length ? Math.max(...lcpTimes) - timing.origin : NaN;
    const types = {};
    for (const request of finished) {
      const type = request.resourceType();
      const sizes = await request.sizes().catch(() => ({ responseBodySize: 0 }));
      types[type] ??= { requests: 0, bytes: 0 };
      types[type].requests++;
      types[type].bytes += sizes.responseBodySize;
    }
    const forms = await page.evaluate(() => globalThis.document.querySelectorAll("main form").length);
    return {
      fcp: timing.fcp,
      lcp,
      load: timing.load,
      ttfb: timing.ttfb,
      cssEnd: timing.cssEnd,
      types,
      requests: finished.length,
      forms,
    };
  } finally {
    await context.close();
  }
}

/** Throttles a page's network to `profile` ({ latencyMs, downBps, upBps }) through its CDP session, and its CPU when asked. */
export async function throttle(cdp, profile, { cpuRate } = {}) {
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.downBps / 8,
    uploadThroughput: profile.upBps / 8,
  });
  if (cpuRate) await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuRate });
}
