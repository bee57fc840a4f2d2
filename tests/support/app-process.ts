import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

export type AppProcess = { url: string; stop(): Promise<void>; output(): string };

/**
 * Runs the built app (`node scripts/server.mjs`, as production runs it) in a
 * process of its own, for fault tests that need several instances or must
 * restart a service under it. `npm test` builds the app first.
 */
export async function startAppProcess({
  port,
  env = {},
}: {
  port: number;
  env?: Record<string, string>;
}): Promise<AppProcess> {
  if (!existsSync(path.join(ROOT, "build/index.js")))
    throw new Error("no build/: run `npx remix build` (npm test does) before this test");
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["scripts/server.mjs"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: url,
      SESSION_SECRET: "fault-test-session-secret-0123456789abcdef",
      TOKEN_SECRET: "fault-test-token-secret-fedcba9876543210xyz",
      TWO_FACTOR_SECRET: "fault-test-two-factor-secret-0123456789xyz",
      STRIPE_PRICE_ESSENTIALS: "price_fault_essentials",
      STRIPE_PRICE_PROFESSIONAL: "price_fault_professional",
      STRIPE_PRICE_ENTERPRISE: "price_fault_enterprise",
      CRON_SECRET: "fault-test-cron-secret",
      BUSINESS_NAME: "Fault Test Websites",
      BUSINESS_ABN: "51 824 753 556",
      ...env,
    },
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited:\n${output}`);
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error(`the app did not answer /healthz in 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      let grace: NodeJS.Timeout | undefined;
      const killed = new Promise((r) => (grace = setTimeout(r, 5_000))).then(() => child.kill("SIGKILL"));
      await Promise.race([exited, killed]);
      clearTimeout(grace);
    },
  };
}

/** A form post as a browser without JavaScript sends it, from a visitor address of its own (the app trusts one proxy in production). */
export function postForm(
  url: string,
  fields: Record<string, string>,
  init: { address?: string; cookie?: string } = {},
) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": init.address ?? `10.9.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}`,
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(30_000),
  });
}
