// The one reader of `.env`, for every command: `npm start` (through this file's command line below),
// `node scripts/server.mjs`, `npm run seed`, `create-admin` and `two-factor`. The file is parsed (Node's
// own dotenv parser: quotes, comments, `export`), never run as shell code, so `.env.example` copied as it
// is works everywhere, `MAIL_FROM=24-Hour Website <hello@...>` included. A variable already in the
// environment (the shell's, a systemd unit's) wins over the file; an empty value in the file sets nothing;
// NODE_ENV=test (the test app) reads no file.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseEnv } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const ENV_FILE = path.join(root, ".env");

/**
 * The values `.env` adds to `env`: those the file sets (not empty) and the environment does not.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string>}
 */
export function envFileValues(env = process.env, file = ENV_FILE) {
  // The test scripts set every variable the test app needs; a developer's .env never leaks into them.
  if (env.NODE_ENV === "test" || !existsSync(file)) return {};
  const values = parseEnv(readFileSync(file, "utf8"));
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => value !== "" && env[name] === undefined));
}

/**
 * Adds `.env`'s values to the environment of this process (before anything reads it).
 * @param {Record<string, string | undefined>} env
 */
export function loadEnvFile(env = process.env, file = ENV_FILE) {
  Object.assign(env, envFileValues(env, file));
}

// `node scripts/env-file.mjs`: the values to add, as NUL-separated NAME=value pairs for a shell to export one
// by one (scripts/start.sh), so no value is ever read as shell code.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [name, value] of Object.entries(envFileValues())) process.stdout.write(`${name}=${value}\0`);
}
