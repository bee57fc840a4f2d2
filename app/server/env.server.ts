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

const EnvSchema = z
  .object({
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
    APP_URL: z.pipe(
      z._default(
        z.url({ error: "APP_URL must be a full URL such as https://example.com.au" }),
        "http://localhost:3000",
      ),
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
  })
  .check(
    z.superRefine((env, ctx) => {
      if (env.NODE_ENV !== "production") return;
      if (env.TWO_FACTOR_SECRET.some((s) => env.SESSION_SECRET.includes(s) || env.TOKEN_SECRET.includes(s))) {
        ctx.addIssue({
          code: "custom",
          path: ["TWO_FACTOR_SECRET"],
          message: "TWO_FACTOR_SECRET must differ from SESSION_SECRET and TOKEN_SECRET, so each can be rotated alone",
        });
      }
      if (env.TOKEN_SECRET.some((s) => env.SESSION_SECRET.includes(s))) {
        ctx.addIssue({
          code: "custom",
          path: ["TOKEN_SECRET"],
          message: "TOKEN_SECRET must differ from SESSION_SECRET, so each can be rotated alone",
        });
      }
      for (const name of ["STRIPE_PRICE_ESSENTIALS", "STRIPE_PRICE_PROFESSIONAL", "STRIPE_PRICE_ENTERPRISE"] as const) {
        if (env[name] && !env[name].startsWith("price_"))
          ctx.addIssue({ code: "custom", path: [name], message: `${name} must be a Stripe price id (price_...)` });
      }
      if (env.LOCAL_STANDINS) {
        // The production build on this machine (npm start): the stand-ins and development secrets never leave it.
        if (!isLocalAddress(env.APP_URL)) {
          ctx.addIssue({
            code: "custom",
            path: ["LOCAL_STANDINS"],
            message:
              "LOCAL_STANDINS=1 is only for running the site on this machine (APP_URL http://localhost:…), never for a deployment",
          });
        }
        return;
      }
      const need = (name: keyof typeof env, why: string) => {
        const value = env[name];
        if (!value || (Array.isArray(value) && !value.length))
          ctx.addIssue({ code: "custom", path: [name], message: `${name} is required in production: ${why}` });
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
      if (env.APP_URL.startsWith("http://localhost")) {
        ctx.addIssue({
          code: "custom",
          path: ["APP_URL"],
          message: "APP_URL must be the public address of the site in production",
        });
      }
    }),
  );

/** Whether a URL is plain http on this machine (localhost, 127.x.y.z or [::1]). */
function isLocalAddress(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return (
    protocol === "http:" && (hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname))
  );
}

type Parsed = z.infer<typeof EnvSchema>;
export type Env = Omit<Parsed, "SESSION_SECRET" | "TOKEN_SECRET" | "TWO_FACTOR_SECRET"> & {
  /** Cookie signing secrets, newest first (at least one). */
  SESSION_SECRETS: string[];
  /** Token derivation secrets, newest first (at least one). */
  TOKEN_SECRETS: string[];
  /** Keys that encrypt the stored two-factor secrets, newest first (at least one). */
  TWO_FACTOR_SECRETS: string[];
};

/** Validates a set of variables; throws an error that names every missing or bad one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // No APP_URL on this machine: the address the app is served at, on its PORT (not always 3000), so the
  // links it e-mails and the ones `npm run seed` prints open the running app.
  const appUrl = source.APP_URL || (source.PORT ? `http://localhost:${source.PORT}` : undefined);
  const parsed = EnvSchema.safeParse({ ...source, APP_URL: appUrl });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${String(i.path[0] ?? "env")}: ${i.message}`);
    throw new Error(`Invalid environment (see .env.example):\n${lines.join("\n")}`);
  }
  const { SESSION_SECRET, TOKEN_SECRET, TWO_FACTOR_SECRET, ...rest } = parsed.data;
  return {
    ...rest,
    SESSION_SECRETS: SESSION_SECRET.length ? SESSION_SECRET : ["development-only-secret-never-used-in-production"],
    TOKEN_SECRETS: TOKEN_SECRET.length ? TOKEN_SECRET : ["development-only-token-secret-never-used-in-production"],
    TWO_FACTOR_SECRETS: TWO_FACTOR_SECRET.length
      ? TWO_FACTOR_SECRET
      : ["development-only-two-factor-secret-never-used-in-production"],
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
