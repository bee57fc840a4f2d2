import { describe, expect, it } from "vitest";
import { CRON_SILENT_AFTER_MS, cronSilence, mailFailingCause } from "~/domain/alerts";

const NOW = new Date("2026-11-27T04:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe("cronSilence", () => {
  it("is quiet while the job ran within two hours", () => {
    expect(
      cronSilence({ lastRunAt: ago(CRON_SILENT_AFTER_MS - 1), watchedSince: ago(10 * CRON_SILENT_AFTER_MS), now: NOW }),
    ).toBeNull();
  });

  it("names the silence by the last run it follows, so one silence is one alert and the next silence another", () => {
    const last = ago(CRON_SILENT_AFTER_MS);
    expect(cronSilence({ lastRunAt: last, watchedSince: ago(100 * CRON_SILENT_AFTER_MS), now: NOW })).toBe(
      `cron-silent:${last.toISOString()}`,
    );
    const later = new Date(NOW.getTime() + 5 * CRON_SILENT_AFTER_MS);
    expect(cronSilence({ lastRunAt: last, watchedSince: ago(0), now: later })).toBe(
      `cron-silent:${last.toISOString()}`,
    );
  });

  it("measures a job that never ran from when the watch began", () => {
    expect(cronSilence({ lastRunAt: null, watchedSince: ago(CRON_SILENT_AFTER_MS - 1), now: NOW })).toBeNull();
    expect(cronSilence({ lastRunAt: null, watchedSince: ago(CRON_SILENT_AFTER_MS), now: NOW })).toBe(
      "cron-silent:never",
    );
  });
});

describe("mailFailingCause", () => {
  it("is one cause per Sydney day", () => {
    // 13:00 UTC is midnight in Sydney (AEDT, UTC+11) on 27 Nov.
    expect(mailFailingCause(new Date("2026-11-27T12:59:00Z"))).toBe("mail-failing:2026-11-27");
    expect(mailFailingCause(new Date("2026-11-27T13:00:00Z"))).toBe("mail-failing:2026-11-28");
  });
});
