import { describe, expect, it } from "vitest";
import { formatDeadline } from "~/domain/dates";
import {
  alertKey,
  alertTimes,
  clockRuns,
  clockState,
  clockSummary,
  customerClockLine,
  deadlineFor,
  deliveryHoursBetween,
  deliveryWindowHours,
  dueAlerts,
  formatSpan,
  refundDue,
  refundNotDue,
  type ClockFacts,
} from "~/domain/delivery-clock";
import { RefundSchema, RestartClockSchema } from "~/domain/delivery-clock.schema";

const H = 3_600_000;
// Mon 24 Nov 2025, 3:00 pm in Sydney (AEDT, UTC+11) is 04:00 UTC.
const start = new Date("2025-11-24T04:00:00Z");
const at = (hours: number) => new Date(start.getTime() + hours * H);

function facts(windowHours: number, over: Partial<ClockFacts> = {}): ClockFacts {
  return {
    startedAt: start,
    deadline: deadlineFor(start, windowHours),
    windowHours,
    deliveredAt: null,
    dataDeletedAt: null,
    refundedAt: null,
    ...over,
  };
}

describe("the delivery window", () => {
  it.each([
    ["24-hour-website", [], 24],
    ["24-hour-website", ["priority-12hr"], 12],
    ["24-hour-website", ["logo-design", "extra-pages"], 24],
    ["starter", [], 48],
    ["starter", ["priority-12hr"], 12],
    ["professional", [], 24],
    ["professional", ["priority-12hr", "domain-setup"], 12],
    ["enterprise", [], 12],
    ["enterprise", ["priority-12hr"], 12],
    [null, [], 24],
    ["something-else", [], 24],
  ] as const)("%s with %j: %d hours", (productId, addOnIds, hours) => {
    expect(deliveryWindowHours({ productId, addOnIds })).toBe(hours);
  });

  it("puts the deadline that many hours after the start", () => {
    expect(deadlineFor(start, 24).toISOString()).toBe("2025-11-25T04:00:00.000Z");
    expect(deadlineFor(start, 12).toISOString()).toBe("2025-11-24T16:00:00.000Z");
    expect(deadlineFor(start, 48).toISOString()).toBe("2025-11-26T04:00:00.000Z");
  });
});

describe("the clock's state on a fixed clock", () => {
  it("has not started without an intake", () => {
    const none: ClockFacts = {
      startedAt: null,
      deadline: null,
      windowHours: null,
      deliveredAt: null,
      dataDeletedAt: null,
      refundedAt: null,
    };
    expect(clockState(none, at(1))).toEqual({ kind: "not-started" });
    expect(clockRuns(none)).toBe(false);
    expect(customerClockLine(clockState(none, at(1)))).toBeNull();
    expect(dueAlerts(none, at(100))).toEqual([]);
  });

  it("runs, is due soon in its last 6 hours, then is overdue", () => {
    const f = facts(24);
    expect(clockState(f, at(1))).toMatchObject({ kind: "running", msLeft: 23 * H, dueSoon: false });
    expect(clockState(f, at(18))).toMatchObject({ kind: "running", msLeft: 6 * H, dueSoon: true });
    expect(clockState(f, at(24))).toMatchObject({ kind: "running", msLeft: 0, dueSoon: true });
    expect(clockState(f, at(26.5))).toMatchObject({ kind: "overdue", msOver: 2.5 * H });
    expect(clockSummary(clockState(f, at(5.25)))).toBe("18 h 45 min left");
    expect(clockSummary(clockState(f, at(26.5)))).toBe("Overdue by 2 h 30 min");
    expect(refundDue(clockState(f, at(23)))).toBe(false);
    expect(refundDue(clockState(f, at(25)))).toBe(true);
  });

  it("says why a refund is not due until the promise is missed", () => {
    const notStarted = facts(24, { startedAt: null, deadline: null, windowHours: null });
    expect(refundNotDue(clockState(notStarted, at(1)))).toBe(
      "Refund not due: the delivery clock has not started (it starts when the intake form is submitted)",
    );
    expect(refundNotDue(clockState(facts(24), at(23)))).toBe("Refund not due: the deadline has not passed");
    expect(refundNotDue(clockState(facts(24, { deliveredAt: at(19) }), at(40)))).toBe(
      "Refund not due: the first draft was delivered on time",
    );
    expect(refundNotDue(clockState(facts(24), at(25)))).toBeNull();
    expect(refundNotDue(clockState(facts(24, { deliveredAt: at(30) }), at(40)))).toBeNull();
  });

  it("stops at a delivery before the deadline: on time, no refund due", () => {
    const f = facts(24, { deliveredAt: at(19) });
    const state = clockState(f, at(40));
    expect(state).toMatchObject({ kind: "delivered", msTaken: 19 * H, onTime: true });
    expect(clockRuns(f)).toBe(false);
    expect(refundDue(state)).toBe(false);
    expect(clockSummary(state)).toBe("Delivered in 19 h");
    expect(customerClockLine(state)).toBe("Draft delivered in 19 h");
    expect(dueAlerts(f, at(40))).toEqual([]);
  });

  it("a delivery after the deadline missed the promise: refund due", () => {
    const state = clockState(facts(12, { deliveredAt: at(13) }), at(14));
    expect(state).toMatchObject({ kind: "delivered", onTime: false });
    expect(refundDue(state)).toBe(true);
    expect(clockSummary(state)).toBe("Delivered in 13 h (after the deadline)");
  });

  it("a delivery exactly at the deadline is on time", () => {
    expect(clockState(facts(24, { deliveredAt: at(24) }), at(30))).toMatchObject({ onTime: true });
  });

  it("a refunded order's clock reads refunded, whatever else", () => {
    const state = clockState(facts(24, { refundedAt: at(30) }), at(31));
    expect(state.kind).toBe("refunded");
    expect(refundDue(state)).toBe(false);
    expect(customerClockLine(state)).toBe("Your order was refunded in full.");
  });

  it("a restart is a new start with the same window: a new deadline and new alerts", () => {
    const restartedAt = at(20);
    const f = facts(24, { startedAt: restartedAt, deadline: deadlineFor(restartedAt, 24) });
    expect(clockState(f, at(30))).toMatchObject({ kind: "running", msLeft: 14 * H });
    expect(alertKey("o1", "overdue", f.deadline!)).not.toBe(alertKey("o1", "overdue", facts(24).deadline!));
    expect(dueAlerts(f, at(30))).toEqual([]);
    expect(dueAlerts(f, at(38))).toEqual(["quarter-left"]);
  });
});

describe("alerts", () => {
  it("warns at a quarter of the window left, then when overdue", () => {
    expect(alertTimes(deadlineFor(start, 24), 24)["quarter-left"]).toEqual(at(18));
    expect(alertTimes(deadlineFor(start, 12), 12)["quarter-left"]).toEqual(at(9));
    expect(alertTimes(deadlineFor(start, 48), 48)["quarter-left"]).toEqual(at(36));
    const f = facts(24);
    expect(dueAlerts(f, at(17.9))).toEqual([]);
    expect(dueAlerts(f, at(18))).toEqual(["quarter-left"]);
    expect(dueAlerts(f, at(23.9))).toEqual(["quarter-left"]);
    expect(dueAlerts(f, at(24))).toEqual(["overdue"]);
    expect(dueAlerts(f, at(100))).toEqual(["overdue"]);
  });

  it("keys each alert by order, kind and deadline", () => {
    expect(alertKey("abc", "quarter-left", at(24))).toBe("clock:abc:alert:quarter-left:2025-11-25T04:00:00.000Z");
  });
});

describe("what people read", () => {
  it("formats the due date in Sydney time", () => {
    expect(formatDeadline(at(24))).toBe("Tue 25 Nov, 3:00 pm");
    expect(customerClockLine(clockState(facts(24), at(2)))).toBe("Your first draft is due by Tue 25 Nov, 3:00 pm");
    // Winter (AEST, UTC+10): 23:30 UTC is 9:30 am the next day.
    expect(formatDeadline(new Date("2026-06-15T23:30:00Z"))).toBe("Tue 16 June, 9:30 am");
  });

  it.each([
    [0, "0 min"],
    [45 * 60_000, "45 min"],
    [19 * H, "19 h"],
    [3 * H + 20 * 60_000, "3 h 20 min"],
    [52 * H, "2 d 4 h"],
    [48 * H, "2 d"],
    [-5, "0 min"],
  ])("spans %d ms as %s", (ms, text) => expect(formatSpan(ms)).toBe(text));

  it("measures delivery hours to a tenth", () => {
    expect(deliveryHoursBetween(start, at(19.25))).toBe(19.3);
  });
});

describe("the admin's forms", () => {
  it("needs what is missing and the restart count the page showed", () => {
    expect(RestartClockSchema.safeParse({ missing: "  ", restarts: "0" }).success).toBe(false);
    expect(RestartClockSchema.safeParse({ missing: "x".repeat(1001), restarts: "0" }).success).toBe(false);
    expect(RestartClockSchema.safeParse({ missing: "Logo", restarts: "-1" }).success).toBe(false);
    expect(RestartClockSchema.safeParse({ missing: "Logo", restarts: "1.5" }).success).toBe(false);
    expect(RestartClockSchema.parse({ missing: " Your logo ", restarts: "2" })).toEqual({
      missing: "Your logo",
      restarts: 2,
    });
  });

  it("needs a refund reason", () => {
    expect(RefundSchema.safeParse({ reason: " " }).success).toBe(false);
    expect(RefundSchema.parse({ reason: "Goodwill" })).toEqual({ reason: "Goodwill" });
  });
});
