import { describe, expect, it } from "vitest";
import { BULK_MESSAGES } from "~/domain/admin/bulk";
import { REMINDER_MESSAGES } from "~/domain/reminders";
import { countOf } from "~/domain/words";

describe("counts read as English", () => {
  it("say 1 order and 2 orders", () => {
    expect(countOf(1, "order")).toBe("1 order");
    expect(countOf(0, "order")).toBe("0 orders");
    expect(countOf(2, "order")).toBe("2 orders");
    expect(REMINDER_MESSAGES.bulkSent(1)).toBe("Sent reminders for 1 order");
    expect(BULK_MESSAGES.done("completed", 1)).toBe("Updated 1 order to completed");
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
