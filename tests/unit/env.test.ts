import { describe, expect, it } from "vitest";
import path from "node:path";
import { parseEnv, serverSettings } from "~/server/env.server";
import { envFileValues } from "../../scripts/env-file.mjs";

/** A complete production configuration. */
const PRODUCTION = {
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
  BUSINESS_NAME: "Northern Rivers Websites Pty Ltd",
  BUSINESS_ABN: "51 824 753 556",
};

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
      "BUSINESS_NAME",
      "BUSINESS_ABN",
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

  it("names the seller on receipts from BUSINESS_NAME and BUSINESS_ABN, refusing an ABN the ATO's checksum refuses", () => {
    expect(parseEnv({})).toMatchObject({ BUSINESS_NAME: "24-Hour Website", BUSINESS_ABN: "51824753556" });
    expect(parseEnv({ BUSINESS_NAME: "Acme Web Pty Ltd", BUSINESS_ABN: "53 004 085 616" })).toMatchObject({
      BUSINESS_NAME: "Acme Web Pty Ltd",
      BUSINESS_ABN: "53004085616",
    });
    for (const BUSINESS_ABN of ["51 824 753 557", "1234", "abcdefghijk"])
      expect(() => parseEnv({ BUSINESS_ABN }), BUSINESS_ABN).toThrow(
        /BUSINESS_ABN: BUSINESS_ABN must be an Australian/,
      );
  });

  it("accepts a complete production configuration", () => {
    const env = parseEnv(PRODUCTION);
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

describe("one reading of the environment, as an operator meets it", () => {
  const message = (source: Record<string, string>) => {
    try {
      parseEnv(source);
      return "";
    } catch (error) {
      return (error as Error).message;
    }
  };

  it("reads .env.example copied as it is (its MAIL_FROM unquoted) and runs on it in development", () => {
    const values = envFileValues({}, path.resolve(__dirname, "../../.env.example"));
    expect(values.MAIL_FROM).toBe("24-Hour Website <hello@northernriverswebsites.com.au>");
    expect(values).not.toHaveProperty("SESSION_SECRET"); // empty: unset
    expect(values).toHaveProperty("HOST", "127.0.0.1");
    expect(values).not.toHaveProperty("TRUST_PROXY");
    expect(parseEnv(values).MAIL_FROM).toBe(values.MAIL_FROM);
    // The shell's own value wins over the file's.
    expect(envFileValues({ PORT: "4000" }, path.resolve(__dirname, "../../.env.example"))).not.toHaveProperty("PORT");
  });

  it("names every malformed and every missing value in one pass", () => {
    const text = message({ NODE_ENV: "production", PORT: "eighty", TRUST_PROXY: "-1", SESSION_SECRET: "short" });
    expect(text).toContain("PORT: PORT must be a whole number from 1 to 65535");
    expect(text).toContain("TRUST_PROXY: TRUST_PROXY must be the number of proxies in front of the app, from 0 to 5");
    expect(text).toContain("SESSION_SECRET: SESSION_SECRET must be at least 32 characters");
    expect(text).not.toContain("SESSION_SECRET is required"); // named once, as malformed
    for (const name of ["TOKEN_SECRET", "MONGODB_URI", "SMTP_URL", "S3_BUCKET", "STRIPE_SECRET_KEY", "CRON_SECRET"])
      expect(text).toContain(`${name}: ${name} is required in production`);
    expect(text).toContain("APP_URL: APP_URL is required in production");
  });

  it("refuses a public http:// APP_URL in production, keeps https and a loopback address", () => {
    expect(message({ ...PRODUCTION, APP_URL: "http://northernriverswebsites.com.au" })).toContain(
      "APP_URL: APP_URL must start with https:// in production",
    );
    expect(parseEnv(PRODUCTION).APP_URL).toBe("https://northernriverswebsites.com.au");
    expect(parseEnv({ ...PRODUCTION, APP_URL: "http://127.0.0.1:3000" }).APP_URL).toBe("http://127.0.0.1:3000");
  });

  it("refuses LOCAL_STANDINS on any interface but loopback", () => {
    const local = { NODE_ENV: "production", LOCAL_STANDINS: "1" };
    for (const HOST of ["127.0.0.1", "::1", "localhost"]) expect(parseEnv({ ...local, HOST }).HOST).toBe(HOST);
    for (const HOST of ["0.0.0.0", "::", "192.168.1.20"])
      expect(message({ ...local, HOST }), HOST).toContain("HOST: LOCAL_STANDINS=1 serves this machine only");
  });

  it("listens, trusts proxies and takes posts from the public origin as a deployment or as this machine", () => {
    expect(serverSettings(parseEnv(PRODUCTION))).toEqual({
      production: true,
      deployed: true,
      host: "0.0.0.0",
      port: 3000,
      trustProxy: 1,
      publicOrigin: "https://northernriverswebsites.com.au",
      https: true,
    });
    expect(serverSettings(parseEnv({ ...PRODUCTION, TRUST_PROXY: "2", HOST: "127.0.0.1" }))).toMatchObject({
      trustProxy: 2,
      host: "127.0.0.1",
    });
    expect(serverSettings(parseEnv({ NODE_ENV: "production", LOCAL_STANDINS: "1" }))).toMatchObject({
      deployed: false,
      host: "127.0.0.1",
      trustProxy: 0,
      publicOrigin: "http://localhost:3000",
      https: false,
    });
  });
});
