import { describe, expect, it } from "vitest";
import { BULK_MESSAGES } from "~/domain/admin/bulk";
import { REMINDER_MESSAGES } from "~/domain/reminders";
import { pagerSummary } from "~/domain/paging";
import { countOf } from "~/domain/words";

describe("counts read as English", () => {
  it("say 1 order and 2 orders", () => {
    expect(countOf(1, "order")).toBe("1 order");
    expect(countOf(0, "order")).toBe("0 orders");
    expect(countOf(2, "order")).toBe("2 orders");
    expect(REMINDER_MESSAGES.bulkSent(1)).toBe("Sent reminders for 1 order");
    expect(BULK_MESSAGES.done("completed", 1)).toBe("Updated 1 order to completed");
  });
  it("say which page of an admin list is shown: 1 older coupon, 3 older coupons", () => {
    expect(pagerSummary({ rows: [1], first: false, pageSize: 25 }, "coupon", "coupons")).toBe(
      "Showing 1 older coupon.",
    );
    expect(pagerSummary({ rows: [1, 2, 3], first: false, pageSize: 25 }, "coupon", "coupons")).toBe(
      "Showing 3 older coupons.",
    );
    expect(pagerSummary({ rows: [], first: true, pageSize: 25 }, "history entry", "history entries")).toBe(
      "Showing the newest 25 history entries.",
    );
    // The orders by deadline are not newest first: their pages are the first and then more.
    expect(pagerSummary({ rows: [], first: true, pageSize: 25 }, "order", "orders", false)).toBe(
      "Showing the first 25 orders.",
    );
    expect(pagerSummary({ rows: [1], first: false, pageSize: 25 }, "order", "orders", false)).toBe(
      "Showing 1 more order.",
    );
  });
  it("name the orders a bulk action skipped, and why", () => {
    expect(BULK_MESSAGES.done("send_reminders", 1, [{ reason: "limit reached or sent recently", count: 1 }])).toBe(
      "Sent reminders for 1 order. 1 order skipped: limit reached or sent recently.",
    );
    expect(BULK_MESSAGES.done("in_progress", 2, [{ reason: BULK_MESSAGES.notPaid, count: 0 }])).toBe(
      "Updated 2 orders to in progress",
    );
  });
});
