// The address the local app is served at, for the links `npm run seed` and `npm run create-admin` print:
// APP_URL or PORT from the shell or `.env` (as `npm start` reads them), else what the last `npm start`
// wrote down (data/dev/app-url), else the default http://localhost:3000. Call before getEnv().
import { existsSync, readFileSync } from "node:fs";
import { loadEnvFile } from "./env-file.mjs";

export const SERVED_AT_FILE = "data/dev/app-url";

export function takeServedAddress(env: Record<string, string | undefined> = process.env, file = SERVED_AT_FILE) {
  // As npm start does; never overrides the shell's own values.
  if (env === process.env) loadEnvFile();
  if (env.APP_URL || env.PORT || !existsSync(file)) return;
  const written = readFileSync(file, "utf8").trim();
  if (/^https?:\/\/\S+$/.test(written)) env.APP_URL = written;
}
