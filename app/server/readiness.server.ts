import { pingDb } from "./db.server";
import { errorMessage, log } from "./log.server";
import { getMailTransport } from "./mail/transport.server";
import { getStorage } from "./storage.server";

type PartState = "up" | "down";
export type Readiness = { ok: boolean; db: PartState; mail: PartState; storage: PartState };

/** Each part gets this long to answer; a monitor must not hang on a server that does not. */
const PART_TIMEOUT_MS = 5_000;
/**
 * One check is shared by the requests that arrive within this long of it: /readyz is public, and each
 * check opens an SMTP connection and asks the bucket, so a burst of requests makes one of each.
 */
const REUSE_MS = 5_000;

async function probe(name: string, run: () => Promise<unknown>): Promise<PartState> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${PART_TIMEOUT_MS / 1000} s`)), PART_TIMEOUT_MS);
    });
    const answer = await Promise.race([run(), timeout]);
    if (answer === false) throw new Error("no answer to a ping");
    return "up";
  } catch (error) {
    log("warn", "ready.part_down", { part: name, reason: errorMessage(error).slice(0, 200) });
    return "down";
  } finally {
    clearTimeout(timer);
  }
}

let last: { at: number; result: Promise<Readiness> } | undefined;

/** Whether the app can serve every flow now: the database answers a ping, SMTP `verify`, the bucket a HEAD. */
export function checkReadiness(now = Date.now()): Promise<Readiness> {
  if (last && now - last.at < REUSE_MS) return last.result;
  const result = Promise.all([
    probe("db", pingDb),
    probe("mail", () => getMailTransport().verify()),
    probe("storage", () => getStorage().check()),
  ]).then(([db, mail, storage]) => ({ ok: db === "up" && mail === "up" && storage === "up", db, mail, storage }));
  last = { at: now, result };
  return result;
}
