import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/env.server";

describe("environment validation", () => {
  it("runs on embedded defaults in development", () => {
    const env = parseEnv({});
    expect(env.NODE_ENV).toBe("development");
    expect(env.PORT).toBe(3000);
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.SESSION_SECRETS[0].length).toBeGreaterThanOrEqual(32);
    expect(env.TOKEN_SECRETS[0]).not.toBe(env.SESSION_SECRETS[0]);
  });

  it("refuses the stand-ins in production and names every variable to set", () => {
    let message = "";
    try {
      parseEnv({ NODE_ENV: "production" });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of [
      "SESSION_SECRET",
      "TOKEN_SECRET",
      "TWO_FACTOR_SECRET",
      "MONGODB_URI",
      "SMTP_URL",
      "S3_BUCKET",
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "CRON_SECRET",
      "APP_URL",
      "STRIPE_PRICE_ESSENTIALS",
      "STRIPE_PRICE_PROFESSIONAL",
      "STRIPE_PRICE_ENTERPRISE",
    ]) {
      expect(message).toContain(`${name}:`);
    }
    expect(message).toContain("the mail folder is for development only");
  });

  it("lets the local production run (npm start) use the stand-ins on a local address, and nothing else", () => {
    const local = parseEnv({ NODE_ENV: "production", LOCAL_STANDINS: "1" });
    expect(local).toMatchObject({ NODE_ENV: "production", LOCAL_STANDINS: true, APP_URL: "http://localhost:3000" });
    // On another port, the links (e-mails, npm run seed) point at the address the app is served at.
    expect(parseEnv({ NODE_ENV: "production", LOCAL_STANDINS: "1", PORT: "3456" }).APP_URL).toBe(
      "http://localhost:3456",
    );
    expect([local.SMTP_URL, local.S3_BUCKET, local.STRIPE_SECRET_KEY]).toEqual([undefined, undefined, undefined]);
    expect(local.SESSION_SECRETS[0].length).toBeGreaterThanOrEqual(32);
    expect(
      parseEnv({ NODE_ENV: "production", LOCAL_STANDINS: "1", APP_URL: "http://127.0.0.1:3100" }).LOCAL_STANDINS,
    ).toBe(true);
    expect(parseEnv({}).LOCAL_STANDINS).toBe(false);

    // A deployment with the switch left on is refused, so are values wrong whatever runs them.
    for (const APP_URL of [
      "https://northernriverswebsites.com.au",
      "http://northernriverswebsites.com.au",
      "https://localhost:3000",
      "http://localhost.example.com",
    ]) {
      expect(() => parseEnv({ NODE_ENV: "production", LOCAL_STANDINS: "1", APP_URL }), APP_URL).toThrow(
        /LOCAL_STANDINS: LOCAL_STANDINS=1 is only for running the site on this machine/,
      );
    }
    expect(() => parseEnv({ NODE_ENV: "production", LOCAL_STANDINS: "1", STRIPE_PRICE_ESSENTIALS: "prod_x" })).toThrow(
      /STRIPE_PRICE_ESSENTIALS must be a Stripe price id/,
    );
    expect(() =>
      parseEnv({
        NODE_ENV: "production",
        LOCAL_STANDINS: "1",
        SESSION_SECRET: "s".repeat(32),
        TOKEN_SECRET: "s".repeat(32),
      }),
    ).toThrow(/TOKEN_SECRET must differ/);
    expect(() =>
      parseEnv({
        NODE_ENV: "production",
        LOCAL_STANDINS: "1",
        TOKEN_SECRET: "s".repeat(32),
        TWO_FACTOR_SECRET: "s".repeat(32),
      }),
    ).toThrow(/TWO_FACTOR_SECRET must differ/);
    expect(() => parseEnv({ LOCAL_STANDINS: "yes" })).toThrow(/LOCAL_STANDINS: LOCAL_STANDINS must be 1/);
    // "0" or empty is off: production refuses the stand-ins as before.
    for (const LOCAL_STANDINS of ["0", ""])
      expect(() => parseEnv({ NODE_ENV: "production", LOCAL_STANDINS })).toThrow(
        /SMTP_URL: SMTP_URL is required in production/,
      );
  });

  it("names a malformed value", () => {
    expect(() => parseEnv({ MONGODB_URI: "postgres://x" })).toThrow(
      /MONGODB_URI: MONGODB_URI must start with mongodb:\/\//,
    );
    expect(() => parseEnv({ SESSION_SECRET: "short" })).toThrow(
      /SESSION_SECRET: SESSION_SECRET must be at least 32 characters/,
    );
  });

  it("accepts a complete production configuration", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      APP_URL: "https://northernriverswebsites.com.au",
      SESSION_SECRET: "x".repeat(40),
      TOKEN_SECRET: "t".repeat(40),
      TWO_FACTOR_SECRET: "f".repeat(40),
      MONGODB_URI: "mongodb+srv://db.example/site",
      SMTP_URL: "smtps://user:pass@smtp.example:465",
      S3_BUCKET: "uploads",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      STRIPE_PRICE_ESSENTIALS: "price_e",
      STRIPE_PRICE_PROFESSIONAL: "price_p",
      STRIPE_PRICE_ENTERPRISE: "price_x",
      CRON_SECRET: "cron",
    });
    expect(env.S3_BUCKET).toBe("uploads");
  });

  it("takes cookie and token secrets as lists, newest first, each long enough, the two never shared", () => {
    const env = parseEnv({
      SESSION_SECRET: `${"n".repeat(32)}, ${"o".repeat(32)}`,
      TOKEN_SECRET: "t".repeat(32),
      APP_URL: "https://example.com.au/",
    });
    expect(env.SESSION_SECRETS).toEqual(["n".repeat(32), "o".repeat(32)]);
    expect(env.TOKEN_SECRETS).toEqual(["t".repeat(32)]);
    expect(env.APP_URL).toBe("https://example.com.au");
    expect(() => parseEnv({ SESSION_SECRET: `${"n".repeat(32)},short` })).toThrow(
      /SESSION_SECRET: SESSION_SECRET must be at least 32 characters/,
    );
    expect(() =>
      parseEnv({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), TOKEN_SECRET: "s".repeat(32) }),
    ).toThrow(/TOKEN_SECRET must differ from SESSION_SECRET/);
  });
});
