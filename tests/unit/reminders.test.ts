import { describe, expect, it } from "vitest";
import {
  decideReminder,
  intakeRemaining,
  REMINDER_RULES,
  reminderKey,
  type ReminderFacts,
  type SentReminder,
} from "~/domain/reminders";
import { purgeBefore, retentionCutoffs, retentionEndsAt } from "~/domain/retention";

// A fixed clock: every boundary below is measured from here.
const NOW = new Date("2026-03-10T09:00:00.000Z");
const H = 3_600_000;
const ago = (hours: number) => new Date(NOW.getTime() - hours * H);
const ahead = (hours: number) => new Date(NOW.getTime() + hours * H);
const MS = 1;

/** A paid order whose customer has done nothing yet; the link has plenty of time left. */
function facts(over: Partial<ReminderFacts> = {}): ReminderFacts {
  return {
    status: "paid",
    paidAt: ago(REMINDER_RULES.intakeNotStartedAfterHours),
    intake: null,
    link: { expiresAt: ahead(24 * 6), used: false },
    revisions: [1, 2, 3].map((round) => ({ round, enabled: false, submitted: false, availableSince: null })),
    history: [],
    ...over,
  };
}
const sent = (kind: SentReminder["kind"], hoursAgo: number, round: number | null = null): SentReminder => ({
  kind,
  round,
  sentAt: ago(hoursAgo),
});

describe("intake not started", () => {
  it(`is due exactly ${REMINDER_RULES.intakeNotStartedAfterHours} hours after payment, not a millisecond before`, () => {
    expect(decideReminder(facts(), NOW, "cron")).toEqual({
      send: true,
      kind: "intake_not_started",
      round: null,
      slot: 1,
    });
    const early = facts({ paidAt: new Date(ago(REMINDER_RULES.intakeNotStartedAfterHours).getTime() + MS) });
    expect(decideReminder(early, NOW, "cron")).toEqual({ send: false, reason: "not_due" });
  });

  it("may be sent early by an admin", () => {
    expect(decideReminder(facts({ paidAt: ago(1) }), NOW, "admin")).toMatchObject({
      send: true,
      kind: "intake_not_started",
    });
  });

  it("is never sent for an order that is not being worked on", () => {
    for (const status of ["pending", "failed", "cancelled", "completed"]) {
      expect(decideReminder(facts({ status }), NOW, "cron")).toEqual({ send: false, reason: "nothing_pending" });
      expect(decideReminder(facts({ status }), NOW, "admin")).toEqual({ send: false, reason: "nothing_pending" });
    }
    expect(decideReminder(facts({ status: "in_progress" }), NOW, "cron")).toMatchObject({ send: true });
  });
});

describe("intake started but incomplete", () => {
  const started = (hoursAgo: number) => ({ lastSavedAt: ago(hoursAgo), submitted: false });

  it(`is due ${REMINDER_RULES.intakeIncompleteAfterHours} hours after the last save`, () => {
    expect(decideReminder(facts({ intake: started(REMINDER_RULES.intakeIncompleteAfterHours) }), NOW, "cron")).toEqual({
      send: true,
      kind: "intake_incomplete",
      round: null,
      slot: 1,
    });
    expect(
      decideReminder(facts({ intake: started(REMINDER_RULES.intakeIncompleteAfterHours - 0.001) }), NOW, "cron"),
    ).toEqual({ send: false, reason: "not_due" });
  });

  it("stops once the intake is submitted", () => {
    const done = facts({
      intake: { lastSavedAt: ago(500), submitted: true },
      link: { expiresAt: ahead(1), used: true },
    });
    expect(decideReminder(done, NOW, "cron")).toEqual({ send: false, reason: "nothing_pending" });
    expect(decideReminder(done, NOW, "admin")).toEqual({ send: false, reason: "nothing_pending" });
  });
});

describe("access link expiring", () => {
  const days = REMINDER_RULES.linkExpiringWithinDays;
  const saved = { lastSavedAt: ago(1), submitted: false }; // recent work: the incomplete reminder is not due yet

  it(`is due once ${days} days or less are left, and not once the link has expired`, () => {
    expect(
      decideReminder(facts({ intake: saved, link: { expiresAt: ahead(days * 24), used: false } }), NOW, "cron"),
    ).toMatchObject({ send: true, kind: "link_expiring" });
    expect(
      decideReminder(
        facts({ intake: saved, link: { expiresAt: new Date(ahead(days * 24).getTime() + MS), used: false } }),
        NOW,
        "cron",
      ),
    ).toEqual({
      send: false,
      reason: "not_due",
    });
    // Expired: nothing about the link; the incomplete-intake reminder (not yet due) carries a fresh one.
    expect(decideReminder(facts({ intake: saved, link: { expiresAt: NOW, used: false } }), NOW, "cron")).toEqual({
      send: false,
      reason: "not_due",
    });
    expect(decideReminder(facts({ intake: saved, link: { expiresAt: NOW, used: false } }), NOW, "admin")).toMatchObject(
      { kind: "intake_incomplete" },
    );
  });

  it("is not sent early, even by an admin", () => {
    const notYet = facts({
      intake: saved,
      link: { expiresAt: ahead(days * 24 + 1), used: false },
      history: [1, 2, 3].map((i) => sent("intake_incomplete", 100 * i)),
    });
    expect(decideReminder(notYet, NOW, "admin")).toEqual({ send: false, reason: "limit_reached" });
  });

  it("gives way to the intake reminder when both are due (its e-mail carries a fresh link too)", () => {
    expect(decideReminder(facts({ link: { expiresAt: ahead(2), used: false } }), NOW, "cron")).toMatchObject({
      kind: "intake_not_started",
    });
  });
});

describe("revision round available", () => {
  const submitted = { lastSavedAt: ago(300), submitted: true };
  const open = (round: number, since: Date | null) =>
    [1, 2, 3].map((r) => ({
      round: r,
      enabled: r <= round,
      submitted: r < round,
      availableSince: r === round ? since : null,
    }));

  it(`is due ${REMINDER_RULES.revisionAvailableAfterHours} hours after the round opened, for the open round only`, () => {
    const due = facts({ intake: submitted, revisions: open(2, ago(REMINDER_RULES.revisionAvailableAfterHours)) });
    expect(decideReminder(due, NOW, "cron")).toEqual({ send: true, kind: "revision_available", round: 2, slot: 1 });
    const early = facts({
      intake: submitted,
      revisions: open(2, ago(REMINDER_RULES.revisionAvailableAfterHours - 0.001)),
    });
    expect(decideReminder(early, NOW, "cron")).toEqual({ send: false, reason: "not_due" });
  });

  it("counts each round's reminders on their own, and stops when the round is submitted", () => {
    const history = [1, 2, 3].map((i) => sent("revision_available", 100 * i, 1));
    expect(
      decideReminder(facts({ intake: submitted, revisions: open(2, ago(100)), history }), NOW, "cron"),
    ).toMatchObject({ round: 2, slot: 1 });
    const allDone = [1, 2, 3].map((round) => ({ round, enabled: true, submitted: true, availableSince: null }));
    expect(decideReminder(facts({ intake: submitted, revisions: allDone }), NOW, "cron")).toEqual({
      send: false,
      reason: "nothing_pending",
    });
  });
});

describe("limits and gaps", () => {
  it(`sends at most ${REMINDER_RULES.maxPerKind} of a kind, numbering each window`, () => {
    const history = Array.from({ length: REMINDER_RULES.maxPerKind - 1 }, (_, i) =>
      sent("intake_not_started", 100 * (i + 1)),
    );
    expect(decideReminder(facts({ history }), NOW, "cron")).toMatchObject({
      send: true,
      slot: REMINDER_RULES.maxPerKind,
    });
    const full = [...history, sent("intake_not_started", 1000)];
    expect(decideReminder(facts({ history: full }), NOW, "cron")).toEqual({ send: false, reason: "limit_reached" });
    expect(decideReminder(facts({ history: full }), NOW, "admin")).toEqual({ send: false, reason: "limit_reached" });
  });

  it(`waits at least ${REMINDER_RULES.minGapHours} hours between two of a kind`, () => {
    expect(
      decideReminder(facts({ history: [sent("intake_not_started", REMINDER_RULES.minGapHours)] }), NOW, "cron"),
    ).toMatchObject({ send: true, slot: 2 });
    expect(
      decideReminder(facts({ history: [sent("intake_not_started", REMINDER_RULES.minGapHours - 0.001)] }), NOW, "cron"),
    ).toEqual({
      send: false,
      reason: "sent_recently",
    });
  });

  it(`waits at least ${REMINDER_RULES.minGapAnyHours} hours between any two reminders to one order, for admins too`, () => {
    const justNow = facts({ history: [sent("link_expiring", REMINDER_RULES.minGapAnyHours - 0.001)] });
    expect(decideReminder(justNow, NOW, "cron")).toEqual({ send: false, reason: "sent_recently" });
    expect(decideReminder(justNow, NOW, "admin")).toEqual({ send: false, reason: "sent_recently" });
    expect(
      decideReminder(facts({ history: [sent("link_expiring", REMINDER_RULES.minGapAnyHours)] }), NOW, "cron"),
    ).toMatchObject({ send: true, kind: "intake_not_started" });
  });

  it("names the order, kind, round and window in the key", () => {
    expect(reminderKey("o-1", { kind: "intake_incomplete", round: null, slot: 2 })).toBe(
      "reminder:o-1:intake_incomplete:2",
    );
    expect(reminderKey("o-1", { kind: "revision_available", round: 3, slot: 1 })).toBe(
      "reminder:o-1:revision_available:r3:1",
    );
  });
});

describe("intakeRemaining", () => {
  it("counts the steps and minutes left from the furthest step reached", () => {
    // The whole form is spec 1's "about 10 minutes"; the steps' own minutes (34 in all) weigh what is left.
    expect(intakeRemaining(1)).toEqual({ steps: 14, minutes: 10, nextStepName: "Business Basics" });
    expect(intakeRemaining(12)).toEqual({ steps: 3, minutes: 2, nextStepName: "Privacy & Consent" });
    expect(intakeRemaining(14)).toEqual({ steps: 1, minutes: 1, nextStepName: "Final Details" });
    expect(intakeRemaining(99).steps).toBe(1);
  });
});

describe("retention", () => {
  const changed = new Date("2026-01-01T00:00:00.000Z");

  it("ends 30 days or 1 year after the last change, and never for 'permanent'", () => {
    expect(retentionEndsAt("30days", changed)?.toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(retentionEndsAt("1year", changed)?.toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(retentionEndsAt("permanent", changed)).toBeNull();
    expect(retentionEndsAt(null, changed)?.toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(retentionEndsAt("forever-please", changed)?.toISOString()).toBe("2026-01-31T00:00:00.000Z");
  });

  it("gives the cron one cutoff per period that expires", () => {
    expect(retentionCutoffs(NOW).map((c) => [c.period, c.changedBefore.toISOString()])).toEqual([
      ["30days", "2026-02-08T09:00:00.000Z"],
      ["1year", "2025-03-10T09:00:00.000Z"],
    ]);
    expect(purgeBefore(NOW, H).toISOString()).toBe("2026-03-10T08:00:00.000Z");
  });
});
