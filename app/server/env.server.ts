import { DAY_MS } from "~/domain/dates";
import * as z from "~/domain/zod";
import { log } from "./log.server";

/**
 * Every environment variable the app reads, validated once at start.
 * `.env.example` documents each one. Development and tests run on embedded
 * defaults (mail to a folder, uploads to a folder, an offline test checkout);
 * production refuses those stand-ins and names the variable to set, unless
 * LOCAL_STANDINS=1 says this is the production build run on this machine
 * (`npm start`), which is allowed only on a local http address.
 */
const optionalString = z.pipe(
  z.optional(z.string().check(z.trim())),
  z.transform((v) => (v ? v : undefined)),
);

/**
 * A secret, or several separated by commas, newest first: the first signs (or
 * derives), all are accepted, so a secret can be rotated without logging anybody
 * out or breaking links already e-mailed.
 */
const secretList = (name: string) =>
  z.pipe(
    z.pipe(
      z.optional(z.string()),
      z.transform((v) =>
        (v ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ),
    z.array(z.string().check(z.minLength(32, `${name} must be at least 32 characters (each, when several are given)`))),
  );

/** A whole number from the environment, with its default and its allowed range named in the message. */
const wholeNumber = (name: string, min: number, max: number, fallback: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z._default(
    z.coerce.number({ error: message }).check(z.int(message), z.gte(min, message), z.lte(max, message)),
    fallback,
  );
};

const TRUST_PROXY_MESSAGE =
  "TRUST_PROXY must be the number of proxies in front of the app, from 0 to 5 (1: Caddy or nginx; 2: a CDN, then Caddy or nginx)";

/** Each variable's own rule; every one is checked, so one malformed value never hides another. */
const EnvFields = {
  NODE_ENV: z._default(
    z.enum(["development", "production", "test"], { error: "NODE_ENV must be development, production or test" }),
    "development",
  ),
  LOCAL_STANDINS: z.pipe(
    z._default(
      z.enum(["", "0", "1"], {
        error: "LOCAL_STANDINS must be 1 (the site on this machine, on the stand-ins) or unset",
      }),
      "",
    ),
    z.transform((v) => v === "1"),
  ),
  PORT: wholeNumber("PORT", 1, 65535, 3000),
  // The interface to listen on. Unset: every interface in a deployment (behind its proxy), 127.0.0.1 otherwise.
  HOST: optionalString,
  // How many proxies in front of the app to believe about the visitor's address (X-Forwarded-For, counted
  // from the app's side): 1 behind Caddy or nginx, 2 behind a CDN and then Caddy or nginx. Unset: 1 in a
  // deployment, 0 (the connection's own address) otherwise.
  TRUST_PROXY: z.optional(
    z.coerce
      .number({ error: TRUST_PROXY_MESSAGE })
      .check(z.int(TRUST_PROXY_MESSAGE), z.gte(0, TRUST_PROXY_MESSAGE), z.lte(5, TRUST_PROXY_MESSAGE)),
  ),
  APP_URL: z.pipe(
    z._default(z.url({ error: "APP_URL must be a full URL such as https://example.com.au" }), "http://localhost:3000"),
    z.transform((url) => url.replace(/\/+$/, "")), // links are built as `${APP_URL}/path`
  ),
  SESSION_SECRET: secretList("SESSION_SECRET"),
  TOKEN_SECRET: secretList("TOKEN_SECRET"),
  TWO_FACTOR_SECRET: secretList("TWO_FACTOR_SECRET"),
  MONGODB_URI: z.optional(
    z.string().check(z.regex(/^mongodb(\+srv)?:\/\//, "MONGODB_URI must start with mongodb:// or mongodb+srv://")),
  ),

  SMTP_URL: optionalString,
  MAIL_FROM: z._default(z.string(), "24-Hour Website <hello@northernriverswebsites.com.au>"),
  BUSINESS_EMAIL: z._default(
    z.email({ error: "BUSINESS_EMAIL must be an e-mail address" }),
    "hello@northernriverswebsites.com.au",
  ),
  // The seller named on every receipt (the payment e-mail, the dashboard, the order status page).
  BUSINESS_NAME: z._default(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)), "24-Hour Website"),
  // Its Australian Business Number: 11 digits, spaces allowed, checked with the ATO's checksum. The development
  // default is the ATO's own example ABN; production requires both (crossIssues).
  BUSINESS_ABN: z._default(
    z.pipe(
      z.string().check(
        z.refine(isAbn, {
          error: "BUSINESS_ABN must be an Australian Business Number: 11 digits, such as 51 824 753 556",
        }),
      ),
      z.transform((abn) => abn.replace(/\s/g, "")),
    ),
    "51824753556",
  ),
  MAIL_DIR: z._default(z.string(), "data/mail"),
  OUTBOX_POLL_MS: wholeNumber("OUTBOX_POLL_MS", 100, DAY_MS, 5000),
  OUTBOX_BACKOFF_MS: wholeNumber("OUTBOX_BACKOFF_MS", 10, DAY_MS, 15000),
  OUTBOX_MAX_ATTEMPTS: wholeNumber("OUTBOX_MAX_ATTEMPTS", 1, 1000, 20),

  S3_ENDPOINT: optionalString,
  S3_REGION: z._default(z.string(), "us-east-1"),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  UPLOAD_DIR: z._default(z.string(), "data/uploads"),

  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: optionalString,
  // Stripe price ids of the monthly maintenance plans (Essentials 49, Professional 149, Enterprise 299 AUD).
  STRIPE_PRICE_ESSENTIALS: optionalString,
  STRIPE_PRICE_PROFESSIONAL: optionalString,
  STRIPE_PRICE_ENTERPRISE: optionalString,

  CRON_SECRET: optionalString,
  // Alerts to the business (app/server/alerts.server.ts) are also posted here as JSON when set.
  ALERT_WEBHOOK_URL: z.pipe(
    optionalString,
    z.optional(z.url({ protocol: /^https?$/, error: "ALERT_WEBHOOK_URL must be a full http(s) URL" })),
  ),
};

/** An ABN: 11 digits (spaces allowed) whose weighted sum, with 1 taken from the first digit, divides by 89 (ATO). */
function isAbn(value: string): boolean {
  const digits = value.replace(/\s/g, "");
  if (!/^\d{11}$/.test(digits)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...digits].reduce((total, d, i) => total + (Number(d) - (i === 0 ? 1 : 0)) * weights[i], 0);
  return sum % 89 === 0;
}

type Parsed = { [K in keyof typeof EnvFields]: z.output<(typeof EnvFields)[K]> };
type Issue = { name: string; message: string };
const SECRETS = ["SESSION_SECRET", "TOKEN_SECRET", "TWO_FACTOR_SECRET"] as const;

/**
 * The rules between variables, and what a deployment needs, over the values that parsed (`env`); a
 * variable that did not parse is already named, so it is not named again as missing.
 */
function crossIssues(env: Partial<Parsed>, given: Record<string, string | undefined>): Issue[] {
  if (env.NODE_ENV !== "production") return [];
  const issues: Issue[] = [];
  const issue = (name: string, message: string) => issues.push({ name, message });
  const [session, token, twoFactor] = SECRETS.map((name) => env[name] ?? []);
  if (twoFactor.some((s) => session.includes(s) || token.includes(s)))
    issue(
      "TWO_FACTOR_SECRET",
      "TWO_FACTOR_SECRET must differ from SESSION_SECRET and TOKEN_SECRET, so each can be rotated alone",
    );
  if (token.some((s) => session.includes(s)))
    issue("TOKEN_SECRET", "TOKEN_SECRET must differ from SESSION_SECRET, so each can be rotated alone");
  for (const name of ["STRIPE_PRICE_ESSENTIALS", "STRIPE_PRICE_PROFESSIONAL", "STRIPE_PRICE_ENTERPRISE"] as const) {
    const price = env[name];
    if (price && !price.startsWith("price_")) issue(name, `${name} must be a Stripe price id (price_...)`);
  }
  if (env.LOCAL_STANDINS) {
    // The production build on this machine (npm start): the stand-ins and development secrets never leave it.
    if (env.APP_URL && !isLocalAddress(env.APP_URL))
      issue(
        "LOCAL_STANDINS",
        "LOCAL_STANDINS=1 is only for running the site on this machine (APP_URL http://localhost:…), never for a deployment",
      );
    if (env.HOST && !isLoopbackHost(env.HOST))
      issue(
        "HOST",
        "LOCAL_STANDINS=1 serves this machine only: HOST must be 127.0.0.1, ::1 or localhost (or unset), never another interface",
      );
    return issues;
  }
  const need = (name: keyof Parsed, why: string) => {
    if (!(name in env)) return; // malformed: named already
    const value = env[name];
    if (!value || (Array.isArray(value) && !value.length)) issue(name, `${name} is required in production: ${why}`);
  };
  need("SESSION_SECRET", "it signs the session and flash cookies");
  need("TOKEN_SECRET", "it derives the access tokens in e-mailed links");
  need("TWO_FACTOR_SECRET", "it encrypts the authenticator-app keys stored for two-factor sign-in");
  need("MONGODB_URI", "production data lives in MongoDB, not the embedded server");
  need("SMTP_URL", "the mail folder is for development only");
  need("S3_BUCKET", "uploads go to S3 in production, not to a local folder");
  need("STRIPE_SECRET_KEY", "the offline test checkout is refused in production");
  need("STRIPE_WEBHOOK_SECRET", "Stripe webhooks must be verified");
  need("STRIPE_PRICE_ESSENTIALS", "the Essentials maintenance plan is sold through this Stripe price");
  need("STRIPE_PRICE_PROFESSIONAL", "the Professional maintenance plan is sold through this Stripe price");
  need("STRIPE_PRICE_ENTERPRISE", "the Enterprise maintenance plan is sold through this Stripe price");
  need("CRON_SECRET", "the reminder route is called by cron with this secret");
  // The defaults are for this machine: a receipt must never name a made-up seller or the ATO's example ABN.
  if (!given.BUSINESS_NAME)
    issue("BUSINESS_NAME", "BUSINESS_NAME is required in production: every receipt names the seller");
  if (!given.BUSINESS_ABN)
    issue(
      "BUSINESS_ABN",
      "BUSINESS_ABN is required in production: every receipt shows the seller's Australian Business Number",
    );
  if (!given.APP_URL)
    issue(
      "APP_URL",
      "APP_URL is required in production: the public address of the site, such as https://example.com.au",
    );
  else if (env.APP_URL && !env.APP_URL.startsWith("https://") && !isLocalAddress(env.APP_URL))
    issue(
      "APP_URL",
      "APP_URL must start with https:// in production (its proxy serves the site over HTTPS; plain http only for localhost)",
    );
  return issues;
}

/** Whether a URL is plain http on this machine (localhost, 127.x.y.z or [::1]). */
function isLocalAddress(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "http:" && isLoopbackHost(hostname);
}

/** Whether a host name or address is this machine's loopback (localhost, 127.x.y.z, ::1). */
function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export type Env = Omit<Parsed, (typeof SECRETS)[number]> & {
  /** Cookie signing secrets, newest first (at least one). */
  SESSION_SECRETS: string[];
  /** Token derivation secrets, newest first (at least one). */
  TOKEN_SECRETS: string[];
  /** Keys that encrypt the stored two-factor secrets, newest first (at least one). */
  TWO_FACTOR_SECRETS: string[];
};

/** Validates a set of variables; throws one error that names every missing and every malformed one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty value is an unset one (`.env.example` lists every variable, most of them empty).
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  // No APP_URL on this machine: the address the app is served at, on its PORT (not always 3000), so the
  // links it e-mails and the ones `npm run seed` prints open the running app.
  const input: Record<string, string | undefined> = {
    ...given,
    APP_URL: given.APP_URL ?? (given.PORT ? `http://localhost:${given.PORT}` : undefined),
  };
  const env: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const [name, schema] of Object.entries(EnvFields)) {
    const parsed = schema.safeParse(input[name]);
    if (parsed.success) env[name] = parsed.data;
    else issues.push(...parsed.error.issues.map((i) => ({ name, message: i.message })));
  }
  issues.push(...crossIssues(env as Partial<Parsed>, given));
  if (issues.length) {
    const lines = issues.map((i) => `  - ${i.name}: ${i.message}`);
    throw new Error(`Invalid environment (see .env.example):\n${lines.join("\n")}`);
  }
  const { SESSION_SECRET, TOKEN_SECRET, TWO_FACTOR_SECRET, ...rest } = env as Parsed;
  return {
    ...rest,
    SESSION_SECRETS: SESSION_SECRET.length ? SESSION_SECRET : ["development-only-secret-never-used-in-production"],
    TOKEN_SECRETS: TOKEN_SECRET.length ? TOKEN_SECRET : ["development-only-token-secret-never-used-in-production"],
    TWO_FACTOR_SECRETS: TWO_FACTOR_SECRET.length
      ? TWO_FACTOR_SECRET
      : ["development-only-two-factor-secret-never-used-in-production"],
  };
}

/**
 * How scripts/server.mjs listens and what it trusts, from the validated environment (entry.server.tsx hands
 * it over): a deployment (production without LOCAL_STANDINS) listens on every interface behind its proxy and
 * believes one proxy hop; anything else listens on 127.0.0.1 and believes none. HSTS and the upgrade of a
 * page's requests follow an https APP_URL.
 */
export function serverSettings(env: Env) {
  const deployed = env.NODE_ENV === "production" && !env.LOCAL_STANDINS;
  return {
    production: env.NODE_ENV === "production",
    deployed,
    host: env.HOST ?? (deployed ? "0.0.0.0" : "127.0.0.1"),
    port: env.PORT,
    trustProxy: env.TRUST_PROXY ?? (deployed ? 1 : 0),
    /** The origin a browser's form post comes from on the public site, whatever Host a proxy passes on. */
    publicOrigin: new URL(env.APP_URL).origin,
    https: deployed && env.APP_URL.startsWith("https://"),
  };
}

let cached: Env | undefined;

/** The process's environment, parsed once (at start: entry.server.tsx reads it first). */
export function getEnv(): Env {
  if (!cached) {
    cached = parseEnv(process.env);
    if (cached.NODE_ENV === "production" && cached.LOCAL_STANDINS) {
      const env = cached;
      const standIns = [
        !env.SMTP_URL && `mail to ${env.MAIL_DIR}`,
        !env.S3_BUCKET && `uploads to ${env.UPLOAD_DIR}`,
        !env.STRIPE_SECRET_KEY && "the offline test checkout",
        !(process.env.SESSION_SECRET && process.env.TOKEN_SECRET && process.env.TWO_FACTOR_SECRET) &&
          "development secrets",
      ].filter(Boolean);
      log("warn", "env.local_standins", {
        message: `LOCAL_STANDINS=1: the production build on this machine, never a deployment; stand-ins: ${standIns.join(", ") || "none"}`,
      });
    }
  }
  return cached;
}

/**
 * Whether the embedded stand-ins and their pages (the offline test checkout, the test
 * maintenance portal, /dev/mail) may run: in development and tests, and in the local
 * production run (LOCAL_STANDINS=1); never in a deployment.
 */
export const standInsAllowed = () => getEnv().NODE_ENV !== "production" || getEnv().LOCAL_STANDINS;

/** An absolute link to a path on this site, for e-mails and Stripe's return addresses. */
export function absoluteUrl(path: string): string {
  return `${getEnv().APP_URL}${path}`;
}
