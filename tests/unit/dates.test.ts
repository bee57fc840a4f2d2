import { describe, expect, it } from "vitest";
import { couponFormDefaults, couponRecord } from "~/domain/admin/coupons";
import {
  endOfSydneyDay,
  formatDate,
  formatDateTime,
  formatDay,
  formatDayMonth,
  formatTime,
  lastSydneyHour,
  startOfSydneyDay,
  sydneyDateInput,
  sydneyYear,
} from "~/domain/dates";

// 23 Nov 2026 15:48 UTC is already 24 Nov, 2:48 am in Sydney (daylight saving, UTC+11).
const LATE_UTC = new Date("2026-11-23T15:48:00Z");

describe("every date a person reads is Sydney's", () => {
  it("formats one instant the same way on every page, whatever the server's zone", () => {
    expect(formatDate(LATE_UTC)).toBe("24 Nov 2026");
    expect(formatDateTime(LATE_UTC)).toBe("24 Nov 2026, 2:48 am");
    expect(formatDay(LATE_UTC)).toBe("Tue, 24 Nov");
    expect(formatDayMonth(LATE_UTC)).toBe("24 Nov");
    expect(formatTime(LATE_UTC)).toBe("2:48 am");
    expect(formatDate(LATE_UTC.toISOString())).toBe("24 Nov 2026");
  });

  it("follows daylight saving: +10 in winter, +11 in summer", () => {
    expect(formatDateTime("2026-06-30T14:30:00Z")).toBe("1 July 2026, 12:30 am");
    expect(formatDateTime("2026-12-31T13:30:00Z")).toBe("1 Jan 2027, 12:30 am");
  });

  it("reads a typed date as the whole of that day in Sydney", () => {
    expect(endOfSydneyDay("2026-12-31").toISOString()).toBe("2026-12-31T12:59:59.999Z");
    expect(endOfSydneyDay("2026-06-30").toISOString()).toBe("2026-06-30T13:59:59.999Z");
    // The days the clocks change: 25 hours on 5 Apr 2026, 23 hours on 4 Oct 2026.
    expect(endOfSydneyDay("2026-04-05").toISOString()).toBe("2026-04-05T13:59:59.999Z");
    expect(endOfSydneyDay("2026-10-04").toISOString()).toBe("2026-10-04T12:59:59.999Z");
    expect(formatDate(endOfSydneyDay("2026-12-31"))).toBe("31 Dec 2026");
  });

  it("starts a Sydney day at its own midnight", () => {
    expect(startOfSydneyDay(LATE_UTC).toISOString()).toBe("2026-11-23T13:00:00.000Z");
    expect(startOfSydneyDay(new Date("2026-06-30T00:00:00Z")).toISOString()).toBe("2026-06-29T14:00:00.000Z");
  });

  it("finds the last time Sydney's clock read an hour (the order digest's nightly pass at 3 am)", () => {
    // 2:48 am on 24 Nov in Sydney: 3 am has not come yet that day, so it is 3 am on the 23rd (16:00 UTC on the 22nd).
    expect(lastSydneyHour(LATE_UTC, 3).toISOString()).toBe("2026-11-22T16:00:00.000Z");
    expect(lastSydneyHour(new Date("2026-11-23T16:00:00Z"), 3).toISOString()).toBe("2026-11-23T16:00:00.000Z");
    // Winter (UTC+10), and across a month's end: 1 am on 1 July in Sydney.
    expect(lastSydneyHour(new Date("2026-06-30T15:00:00Z"), 3).toISOString()).toBe("2026-06-29T17:00:00.000Z");
  });

  it("turns the year at Sydney's midnight, not UTC's (the footer's year)", () => {
    expect(sydneyYear(new Date("2026-12-31T12:59:59Z"))).toBe(2026);
    expect(sydneyYear(new Date("2026-12-31T13:00:00Z"))).toBe(2027);
  });

  it("gives a date input the Sydney day", () => {
    expect(sydneyDateInput(LATE_UTC)).toBe("2026-11-24");
    expect(sydneyDateInput(endOfSydneyDay("2026-12-31"))).toBe("2026-12-31");
  });
});

describe("a coupon's valid-until date", () => {
  const form = {
    code: "SUMMER",
    discount_type: "percentage" as const,
    discount_value: 10,
    active: true,
    allowed_emails: [],
    allowed_domains: [],
  };
  it("is stored as the end of that day in Sydney and reads back as the same day", () => {
    const stored = couponRecord({ ...form, valid_until: "2026-12-31" });
    expect(stored.valid_until?.toISOString()).toBe("2026-12-31T12:59:59.999Z");
    expect(formatDate(stored.valid_until!)).toBe("31 Dec 2026");
    expect(couponFormDefaults({ ...stored, valid_until: stored.valid_until }).valid_until).toBe("2026-12-31");
  });
});
