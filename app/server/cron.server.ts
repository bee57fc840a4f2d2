import { createHash, timingSafeEqual } from "node:crypto";
import { checkAlerts, noteCronRun } from "./alerts.server";
import { sendClockAlerts } from "./delivery-clock.server";
import { getEnv } from "./env.server";
import { errorMessage, log } from "./log.server";
import { outboxCounts, requeueStrandedMail } from "./mail/outbox.server";
import { runReminders } from "./reminders.server";
import { deleteExpiredIntakeData, purgeExpiredRecords } from "./retention.server";

/**
 * True when the request carries `Authorization: Bearer <CRON_SECRET>`. Both
 * sides are hashed first, so the comparison takes the same time whatever the
 * length or content of what was sent. Without a CRON_SECRET nothing passes.
 */
export function isCronRequest(request: Request): boolean {
  const secret = getEnv().CRON_SECRET;
  const header = request.headers.get("authorization") ?? "";
  const sent = /^Bearer (.+)$/.exec(header)?.[1] ?? "";
  const digest = (value: string) => createHash("sha256").update(value).digest();
  const matches = timingSafeEqual(digest(sent), digest(secret ?? ""));
  return Boolean(secret) && Boolean(sent) && matches;
}

type Part<T> = { ok: true; result: T } | { ok: false; error: string };

async function part<T>(name: string, run: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, result: await run() };
  } catch (error) {
    const reason = errorMessage(error);
    log("error", "cron.part_failed", { part: name, reason });
    return { ok: false, error: `${name} failed` };
  }
}

/**
 * One cron run: reminders, the delivery clock's alerts, retention deletion, purges, the outbox's queue and state,
 * then its heartbeat and the alert watch (failing mail).
 * Each part runs even if another fails; every effect is keyed, so a second run
 * at the same time, or a retry, changes nothing twice.
 */
export async function runCron(now = new Date()) {
  const reminders = await part("reminders", () => runReminders(now));
  const clockAlerts = await part("clock alerts", () => sendClockAlerts(now));
  const retention = await part("retention", () => deleteExpiredIntakeData(now));
  const purged = await part("purge", () => purgeExpiredRecords(now));
  // Stranded messages back in the worker's queue first, so that the counts say what waits.
  const outbox = await part("outbox", async () => ({
    requeued: await requeueStrandedMail(),
    ...(await outboxCounts()),
  }));
  // The heartbeat the alert watch reads (a run with a failed part still ran), then the watch itself.
  const alerts = await part("alerts", async () => {
    await noteCronRun(now);
    return checkAlerts(now);
  });
  const parts = { reminders, clockAlerts, retention, purged, outbox, alerts };
  const errors = Object.values(parts).flatMap((p) => (p.ok ? [] : [p.error]));
  const summary = {
    ok: errors.length === 0,
    ranAt: now.toISOString(),
    ...Object.fromEntries(Object.entries(parts).map(([k, p]) => [k, p.ok ? p.result : null])),
    ...(errors.length ? { errors } : {}),
  };
  log(errors.length ? "error" : "info", "cron.run", summary);
  return summary;
}
