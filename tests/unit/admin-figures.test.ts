import { describe, expect, it } from "vitest";
import { formatCents } from "~/domain/money";
import { BulkSchema } from "~/domain/admin/bulk";
import { weeklySeries } from "~/domain/admin/chart";
import { percentChange, summaryCards, type FigureRow } from "~/domain/admin/figures";
import { dateFilterStart, parseOrderFilters, searchTerm } from "~/domain/admin/order-filters";
import { csvCell, csvLine } from "~/domain/admin/orders-csv";
import { startOfSydneyDay } from "~/domain/dates";
import { adminTokenState } from "~/domain/admin/token";
import { adminStatusTone, statusText } from "~/domain/order-status";

const DAY = 86_400_000;
const now = new Date("2026-06-30T00:00:00Z");
const ago = (days: number) => new Date(now.getTime() - days * DAY);

// A hand-computed fixture: three paid orders this month, two last month, one unpaid checkout.
const recent: FigureRow[] = [
  { status: "paid", amount_paid: 30_000, created_at: ago(5) },
  { status: "completed", amount_paid: 33_000, created_at: ago(10) },
  { status: "in_progress", amount_paid: 30_000, created_at: ago(20) },
  { status: "pending", amount_paid: 0, created_at: ago(3) },
  { status: "completed", amount_paid: 30_000, created_at: ago(40) },
  { status: "completed", amount_paid: 30_000, created_at: ago(50) },
];
// First drafts delivered: two in the last 30 days (by delivery date), two in the 30 before.
const deliveries = [
  { delivered_at: ago(4), hours: 20 },
  { delivered_at: ago(19), hours: 16 },
  { delivered_at: ago(39), hours: 22 },
  { delivered_at: ago(49), hours: 26 },
];
const totals = {
  count: { paid: 1, completed: 3, in_progress: 1, pending: 1 },
  revenue: { paid: 30_000, completed: 93_000, in_progress: 30_000 },
};

describe("the six summary cards", () => {
  const cards = Object.fromEntries(
    summaryCards({ totals, recent, deliveries, now, formatMoney: formatCents }).map((c) => [c.label, c]),
  );

  it("computes the values from paid orders only", () => {
    expect(cards["Total Revenue"].value).toBe("$1,530.00"); // 300 + 930 + 300
    expect(cards["Total Orders"].value).toBe("5"); // the unpaid checkout is not an order yet
    expect(cards["Avg Order Value"].value).toBe("$306.00"); // 1530 / 5
    expect(cards["Active Projects"].value).toBe("2"); // paid + in progress
    expect(cards["Completion Rate"].value).toBe("60%"); // 3 / 5
    expect(cards["Avg Delivery"].value).toBe("18h"); // (20 + 16) / 2: this period's deliveries
  });

  it("compares the last 30 days with the 30 before, the way the spec's captions read", () => {
    expect(cards["Total Revenue"].caption).toBe("+55.0% from last month"); // 930 vs 600
    expect(cards["Total Orders"].caption).toBe("+50.0% from last month"); // 3 vs 2
    expect(cards["Avg Order Value"].caption).toBe("+3.3% from last month"); // 310 vs 300
    expect(cards["Active Projects"].caption).toBe("1 pending");
    expect(cards["Completion Rate"].caption).toBe("-67.0% from last month"); // 33% vs 100%
    expect(cards["Avg Delivery"].caption).toBe("-6h from last month"); // 18h vs 24h (22 + 26) / 2
  });

  it("reads 'no deliveries yet' when none was delivered this period, and 'new this month' with none before", () => {
    const card = (rows: typeof deliveries) =>
      summaryCards({ totals, recent, deliveries: rows, now, formatMoney: formatCents }).find(
        (c) => c.label === "Avg Delivery",
      )!;
    expect(card(deliveries.slice(2))).toEqual({ label: "Avg Delivery", value: "–", caption: "no deliveries yet" });
    expect(card(deliveries.slice(0, 2))).toMatchObject({ value: "18h", caption: "new this month" });
  });

  it("has no figures to divide by on an empty shop", () => {
    const cards = summaryCards({
      totals: { count: {}, revenue: {} },
      recent: [],
      deliveries: [],
      now,
      formatMoney: formatCents,
    });
    expect(cards.map((c) => c.value)).toEqual(["$0.00", "0", "$0.00", "0", "0%", "–"]);
    expect(cards.map((c) => c.caption)).toEqual([
      "no change",
      "no change",
      "no change",
      "0 pending",
      "no change",
      "no deliveries yet",
    ]);
  });

  it("says a month is new rather than dividing by zero", () => {
    expect(percentChange(5, 0)).toBe("new this month");
    expect(percentChange(0, 4)).toBe("-100.0%");
  });
});

describe("the weekly chart series", () => {
  it("buckets paid orders by week, oldest first", () => {
    const weeks = weeklySeries(recent, now, 12);
    expect(weeks).toHaveLength(12);
    expect(weeks.map((w) => w.orders)).toEqual([0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1]);
    expect(weeks[10].revenue).toBe(33_000);
    expect(weeks[11].revenue).toBe(30_000); // the pending checkout 3 days ago is not counted
  });
});

describe("filters", () => {
  it("parses the query string and drops what it doesn't know", () => {
    const f = parseOrderFilters(new URLSearchParams("q=  Jo@Example.COM &status=paid&date=week&cursor=bogus"));
    expect(f).toEqual({ q: "jo@example.com", status: "paid", date: "week" });
    expect(parseOrderFilters(new URLSearchParams("status=hacked&date=$gt"))).toEqual({
      q: undefined,
      status: undefined,
      date: undefined,
    });
  });

  it("reads a search as an e-mail prefix and, when it can be one, an order-id prefix", () => {
    expect(searchTerm("order #3f2a")).toEqual({ emailPrefix: "order #3f2a", idPrefix: "3f2a" });
    expect(searchTerm("jo@acme")).toEqual({ emailPrefix: "jo@acme", idPrefix: null });
  });

  it("starts 'today' at midnight in New South Wales, in winter and in summer", () => {
    expect(startOfSydneyDay(new Date("2026-06-30T00:00:00Z")).toISOString()).toBe("2026-06-29T14:00:00.000Z");
    expect(startOfSydneyDay(new Date("2026-01-15T00:00:00Z")).toISOString()).toBe("2026-01-14T13:00:00.000Z");
  });

  it("goes back 7 days, a month or three months", () => {
    expect(dateFilterStart("week", now).toISOString()).toBe("2026-06-23T00:00:00.000Z");
    expect(dateFilterStart("month", now).toISOString()).toBe("2026-05-30T00:00:00.000Z");
    expect(dateFilterStart("quarter", now).toISOString()).toBe("2026-03-30T00:00:00.000Z");
  });
});

describe("bulk form", () => {
  it("accepts one id or many, and refuses ids that aren't order ids", () => {
    const id = "3f2a9c1e-0000-4000-8000-000000000001";
    expect(BulkSchema.parse({ action: "completed", orderIds: id, all: undefined })).toEqual({
      action: "completed",
      orderIds: [id],
      all: false,
    });
    expect(BulkSchema.parse({ action: "", orderIds: ["x", id], all: "on" })).toEqual({
      action: undefined,
      orderIds: [],
      all: true,
    });
  });
});

describe("CSV", () => {
  it("quotes and neutralises formulas", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("plain")).toBe("plain");
    const line = csvLine({
      id: "abc",
      status: "paid",
      user_id: null,
      email: "+61@x.au",
      amount_paid: 30_000,
      currency: "aud",
      created_at: now,
      stripe_payment_intent_id: null,
      product_name: "24-Hour Website",
    });
    // created_at stays UTC ISO for machines; created_sydney is the date a person reads.
    expect(line).toBe(
      'abc,paid,yes,\'+61@x.au,300.00,AUD,2026-06-30T00:00:00.000Z,,24-Hour Website,"30 June 2026, 10:00 am"',
    );
  });
});

describe("status and token state", () => {
  it("shows status upper-case with spaces, in the admin list's colours", () => {
    expect(statusText("in_progress")).toBe("IN PROGRESS");
    expect(["paid", "pending", "failed", "completed"].map(adminStatusTone)).toEqual(["green", "yellow", "red", "grey"]);
  });

  it("reads a token's state from its expiry", () => {
    expect(adminTokenState(null, now)).toBe("No Token");
    expect(adminTokenState(new Date(now.getTime() - 1), now)).toBe("Expired");
    expect(adminTokenState(new Date(now.getTime() + 2.5 * DAY), now)).toBe("Expiring Soon");
    expect(adminTokenState(new Date(now.getTime() + 3 * DAY), now)).toBe("Expiring Soon");
    expect(adminTokenState(new Date(now.getTime() + 3 * DAY + 1000), now)).toBe("Valid");
  });
});
