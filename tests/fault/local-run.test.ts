import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { postForm, startAppProcess, type AppProcess } from "../support/app-process";
import { privatePort } from "../support/processes";

// `npm start` runs the production build with NODE_ENV=production and LOCAL_STANDINS=1 (scripts/start.sh);
// a deployment runs it without the switch. Each case starts the built server as those do.
const apps: AppProcess[] = [];
let dir = "";
afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Nothing configured, as on a fresh machine: every production variable empty, files in a folder of this test's own. */
async function standInEnv(extra: Record<string, string> = {}) {
  dir ||= await mkdtemp(path.join(tmpdir(), "local-run-"));
  const unset = [
    "SMTP_URL",
    "S3_BUCKET",
    "S3_ENDPOINT",
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "STRIPE_API_BASE",
    "STRIPE_PRICE_ESSENTIALS",
    "STRIPE_PRICE_PROFESSIONAL",
    "STRIPE_PRICE_ENTERPRISE",
    "CRON_SECRET",
    "SESSION_SECRET",
    "TOKEN_SECRET",
  ];
  return {
    ...Object.fromEntries(unset.map((name) => [name, ""])),
    MONGODB_URI: `${process.env.MONGODB_URI!.slice(0, process.env.MONGODB_URI!.lastIndexOf("/"))}/local-run`,
    MAIL_DIR: path.join(dir, "mail"),
    UPLOAD_DIR: path.join(dir, "uploads"),
    ...extra,
  };
}

async function start(env: Record<string, string>) {
  const app = startAppProcess({ port: privatePort(20000), env });
  app.then((started) => apps.push(started)).catch(() => {});
  return app;
}

describe("the production build on this machine (npm start) and in a deployment", () => {
  it(
    "refuses the stand-ins in production without LOCAL_STANDINS, naming what to set",
    { timeout: 60_000 },
    async () => {
      const refused = await start(await standInEnv()).then(
        () => "",
        (error: Error) => error.message,
      );
      expect(refused).toContain("the app exited");
      for (const line of [
        "SMTP_URL: SMTP_URL is required in production",
        "S3_BUCKET: S3_BUCKET is required in production",
        "STRIPE_SECRET_KEY: STRIPE_SECRET_KEY is required in production",
      ]) {
        expect(refused).toContain(line);
      }
    },
  );

  it("refuses LOCAL_STANDINS with a public address: the switch never deploys", { timeout: 60_000 }, async () => {
    const refused = await start(
      await standInEnv({ LOCAL_STANDINS: "1", APP_URL: "https://northernriverswebsites.com.au" }),
    ).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(refused).toContain("LOCAL_STANDINS: LOCAL_STANDINS=1 is only for running the site on this machine");
  });

  it(
    "with LOCAL_STANDINS=1 serves the production build on plain http with the stand-ins, and says so once",
    { timeout: 90_000 },
    async () => {
      const app = await start(await standInEnv({ LOCAL_STANDINS: "1" }));
      const warnings = app
        .output()
        .split("\n")
        .filter((line) => line.includes('"event":"env.local_standins"'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("never a deployment; stand-ins: mail to ");
      expect(warnings[0]).toContain("the offline test checkout");

      const home = await fetch(`${app.url}/`);
      expect(home.status).toBe(200);
      // No https on localhost: no HSTS, no upgrade of the page's requests.
      expect(home.headers.get("strict-transport-security")).toBeNull();
      expect(home.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
      expect((await fetch(`${app.url}/dev/mail`)).status).toBe(200);

      // The offline test checkout takes the order; its cookie is not Secure, so it comes back over http.
      const paying = await postForm(`${app.url}/checkout`, {
        email: "local-run@example.test",
        terms: "on",
        intent: "pay",
      });
      expect(paying.status).toBe(303);
      expect(paying.headers.get("location")).toMatch(/^\/checkout\/offline\?session_id=/);
      const cookies = paying.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) expect(cookie).not.toMatch(/;\s*Secure/i);
      const offline = await fetch(`${app.url}${paying.headers.get("location")}`);
      expect(offline.status).toBe(200);
      expect(await offline.text()).toContain("Complete test payment");
    },
  );

  it(
    "as deployed (every variable set, no switch) sends HSTS and serves no stand-in page",
    { timeout: 90_000 },
    async () => {
      // The test services' real SMTP, S3 and stripe-mock; startAppProcess sets the secrets, prices and cron secret.
      const app = await start({
        MONGODB_URI: `${process.env.MONGODB_URI!.slice(0, process.env.MONGODB_URI!.lastIndexOf("/"))}/local-run`,
        LOCAL_STANDINS: "",
        // Its proxy serves it over https (HSTS and the upgrade follow an https APP_URL).
        APP_URL: "https://shop.example.test",
      });
      expect(app.output()).not.toContain("env.local_standins");
      const home = await fetch(`${app.url}/`);
      expect(home.headers.get("strict-transport-security")).toContain("max-age=");
      expect(home.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
      for (const page of ["/dev/mail", "/dev/error", "/checkout/offline?session_id=cs_x"]) {
        expect((await fetch(`${app.url}${page}`, { redirect: "manual" })).status, page).toBe(404);
      }
    },
  );
});
