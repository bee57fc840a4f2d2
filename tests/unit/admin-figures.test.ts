import { addOnsInShort, formatAbn, orderReceipt, receiptView } from "~/domain/receipt";
import { describe, expect, it } from "vitest";
import { formatCents } from "~/domain/money";
import { BulkSchema } from "~/domain/admin/bulk.schema";
import { CHART_WORDS, weeklySeries } from "~/domain/admin/chart";
import { periodOf, summaryCards, tallyOrders, trend, type FigureRow } from "~/domain/admin/figures";
import { dateFilterStart, searchTerm } from "~/domain/admin/order-filters";
import { parseOrderFilters } from "~/domain/admin/order-filters.schema";
import { csvCell, csvLine } from "~/domain/admin/orders-csv";
import { startOfSydneyDay } from "~/domain/dates";
import { adminTokenState } from "~/domain/tokens";
import { adminStatusTone, statusText } from "~/domain/order-status";

const DAY = 86_400_000;
const now = new Date("2026-06-30T00:00:00Z");
const ago = (days: number) => new Date(now.getTime() - days * DAY);

// A hand-computed fixture: four orders placed in the last 30 days (one an unpaid checkout), three in the
// 30 days before (one failed), one a year ago. Three first drafts were delivered: two in the last 30 days
// (by delivery date), one in the 30 before.
const rows: FigureRow[] = [
  { status: "paid", amount_paid: 30_000, created_at: ago(5) },
  { status: "completed", amount_paid: 33_000, created_at: ago(10), draft_delivered_at: ago(9), delivery_hours: 20 },
  { status: "in_progress", amount_paid: 30_000, created_at: ago(20), draft_delivered_at: ago(19), delivery_hours: 16 },
  { status: "pending", amount_paid: 0, created_at: ago(3) },
  { status: "completed", amount_paid: 30_000, created_at: ago(40), draft_delivered_at: ago(39), delivery_hours: 22 },
  { status: "failed", amount_paid: 0, created_at: ago(45) },
  { status: "paid", amount_paid: 30_000, created_at: ago(50) },
  { status: "refunded", amount_paid: 30_000, created_at: ago(365) },
];
const cardsOf = (list: FigureRow[]) =>
  Object.fromEntries(summaryCards(tallyOrders(list, now), formatCents).map((c) => [c.label, c]));

describe("the six summary cards (spec 2 section 9)", () => {
  const cards = cardsOf(rows);

  it("Total Orders counts every order but abandoned checkouts", () => {
    expect(cards["Total Orders"].value).toBe("8");
    expect(cards["Total Orders"].hint).toBe("Every order but abandoned checkouts (cancelled)");
  });

  it("abandoned checkouts (cancelled) inflate neither Total Orders, Avg Order Value nor Completion Rate", () => {
    const abandoned = Array.from({ length: 13 }, (_, i): FigureRow => ({
      status: "cancelled",
      amount_paid: 0,
      created_at: ago(i + 1),
    }));
    const withAbandoned = cardsOf([...rows, ...abandoned]);
    for (const label of ["Total Orders", "Avg Order Value", "Completion Rate", "Total Revenue"])
      expect(withAbandoned[label].value).toBe(cards[label].value);
    expect(withAbandoned["Total Orders"].trend).toBe(cards["Total Orders"].trend);
  });

  it("revenue is what paid, in-progress and completed orders paid; a refunded one is out", () => {
    expect(cards["Total Revenue"].value).toBe("$1,530.00"); // 300 + 330 + 300 + 300 + 300
  });

  it("average order value = revenue / orders", () => {
    expect(cards["Avg Order Value"].value).toBe("$191.25"); // 1530 / 8
    expect(cards["Avg Order Value"].hint).toBe("Total Revenue ÷ Total Orders (abandoned checkouts left out)");
  });

  it("active projects = paid or in progress", () => {
    expect(cards["Active Projects"].value).toBe("3");
  });

  it("completion rate = completed / all orders, a rounded percent", () => {
    expect(cards["Completion Rate"].value).toBe("25%"); // 2 / 8
    expect(cards["Completion Rate"].hint).toBe("Completed orders ÷ Total Orders (abandoned checkouts left out)");
  });

  it("Avg Delivery is the mean hours from intake to first draft of every draft delivered", () => {
    expect(cards["Avg Delivery"].value).toBe("19h"); // (20 + 16 + 22) / 3 = 19.3
  });

  it("every trend compares the last 30 days with the 30 before", () => {
    // Placed in the last 30 days: 4 orders, $930 revenue, 1 completed, 2 active;
    // in the 30 before: 3 orders, $600, 1 completed, 1 active.
    expect(cards["Total Revenue"].trend).toBe("+$330.00 vs previous 30 days");
    expect(cards["Total Orders"].trend).toBe("+1 vs previous 30 days");
    expect(cards["Avg Order Value"].trend).toBe("+$32.50 vs previous 30 days"); // 232.50 vs 200.00
    expect(cards["Active Projects"].trend).toBe("+1 vs previous 30 days");
    expect(cards["Completion Rate"].trend).toBe("-8 points vs previous 30 days"); // 25% vs 33%
    expect(cards["Avg Delivery"].trend).toBe("-4h vs previous 30 days"); // 18h vs 22h
    for (const c of Object.values(cards)) expect(c.trend).not.toMatch(/new this month|from last month/);
  });

  it("says a fall, no change, and one point in words", () => {
    expect(trend(-2)).toBe("-2 vs previous 30 days");
    expect(trend(0)).toBe("no change vs previous 30 days");
    expect(trend(-30_000, formatCents)).toBe("-$300.00 vs previous 30 days");
    const oneEach = cardsOf([
      { status: "completed", amount_paid: 30_000, created_at: ago(1) },
      { status: "paid", amount_paid: 30_000, created_at: ago(2) },
      { status: "completed", amount_paid: 30_000, created_at: ago(31) },
      { status: "paid", amount_paid: 30_000, created_at: ago(32) },
    ]);
    expect(oneEach["Completion Rate"].trend).toBe("no change vs previous 30 days");
    expect(oneEach["Total Orders"].trend).toBe("no change vs previous 30 days");
  });

  it("reads 'no deliveries yet' until a draft is delivered, never 0h", () => {
    const none = cardsOf(rows.map((r) => ({ ...r, draft_delivered_at: null, delivery_hours: null })));
    expect(none["Avg Delivery"]).toMatchObject({ value: "None yet", trend: "no deliveries yet" });
    const onlyOld = cardsOf([{ ...rows[4] }]);
    expect(onlyOld["Avg Delivery"]).toMatchObject({ value: "22h", trend: "none delivered in the last 30 days" });
    const quick = cardsOf([{ ...rows[1], delivery_hours: 0.3 }]);
    expect(quick["Avg Delivery"].value).toBe("<1h");
    const onlyNew = cardsOf([{ ...rows[1] }]);
    expect(onlyNew["Avg Delivery"]).toMatchObject({ value: "20h", trend: "none delivered in the previous 30 days" });
  });

  it("has nothing to divide by on an empty shop, and says so", () => {
    const empty = summaryCards(tallyOrders([], now), formatCents);
    expect(empty.map((c) => c.value)).toEqual(["$0.00", "0", "$0.00", "0", "0%", "None yet"]);
    expect(empty.map((c) => c.trend)).toEqual([
      "no change vs previous 30 days",
      "no change vs previous 30 days",
      "no orders in the last 30 days",
      "no change vs previous 30 days",
      "no orders in the last 30 days",
      "no deliveries yet",
    ]);
    const onlyRecent = cardsOf([{ status: "paid", amount_paid: 30_000, created_at: ago(1) }]);
    expect(onlyRecent["Avg Order Value"].trend).toBe("no orders in the previous 30 days");
  });

  it("puts an order placed exactly 30 days ago in the last 30 days, and one in the future in neither", () => {
    expect(periodOf(ago(30), now)).toBe(0);
    expect(periodOf(new Date(ago(30).getTime() - 1), now)).toBe(1);
    expect(periodOf(ago(60), now)).toBe(1);
    expect(periodOf(new Date(ago(60).getTime() - 1), now)).toBe(null);
    expect(periodOf(new Date(now.getTime() + 1), now)).toBe(null);
  });
});

describe("the weekly chart series", () => {
  it("buckets paid orders by week, oldest first", () => {
    const weeks = weeklySeries(rows, now, 12);
    expect(weeks).toHaveLength(12);
    expect(weeks.map((w) => w.orders)).toEqual([0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1]);
    expect(weeks[10].revenue).toBe(33_000);
    expect(weeks[11].revenue).toBe(30_000); // the pending checkout 3 days ago is not counted
  });
  it("names its line paid orders, as it counts them", () => {
    const pending = weeklySeries([{ status: "pending", amount_paid: 0, created_at: now }], now, 1);
    expect(pending[0].orders).toBe(0);
    expect(CHART_WORDS.title).toBe("Revenue and paid orders per week");
    expect(CHART_WORDS.key).toContain("line paid orders");
    expect(CHART_WORDS.column).toBe("Paid orders");
    expect(CHART_WORDS.counts).toContain("abandoned checkouts (cancelled) are left out");
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
      add_ons: [{ name: "Priority 12-Hour Delivery" }, { name: "2 Extra Pages" }],
      coupon_code: "SAVE10",
      discount: 3_000,
      data_deleted: false,
    });
    // created_at stays UTC ISO for machines; created_sydney is the date a person reads.
    expect(line).toBe(
      'abc,paid,yes,\'+61@x.au,300.00,AUD,2026-06-30T00:00:00.000Z,,24-Hour Website,"30 June 2026, 10:00 am",Priority 12-Hour Delivery; 2 Extra Pages,SAVE10,30.00,no',
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

describe("what an order sold (receipt.ts)", () => {
  it("reads the product's price as charged, each add-on, a plan's first month, the coupon, and the short names", () => {
    const r = orderReceipt({
      _id: "abcdef12-0000",
      product_name: "Starter Website Package",
      add_ons: [{ id: "logo-design", name: "Professional Logo Design", price: 15_000 }],
      coupon_code: "TEN",
      discount: 1_000,
      maintenance_plan: "essentials",
      amount_total: 30_000 + 15_000 - 1_000 + 4_900,
      amount_paid: 48_900,
    });
    expect(r.orderNumber).toBe("abcdef12");
    expect(r.items.map((i) => [i.name, i.amount])).toEqual([
      ["Starter Website Package", 30_000],
      ["Professional Logo Design", 15_000],
      ["Essentials maintenance, first month", 4_900],
    ]);
    expect([r.couponCode, r.discount, r.total]).toEqual(["TEN", 1_000, 48_900]);
    expect(
      addOnsInShort([
        { id: "priority-12hr", name: "Priority 12-Hour Delivery" },
        { id: "x", name: "Other" },
      ]),
    ).toBe("Priority, Other");
  });

  it("reads as the customer's receipt: seller and ABN, date, order number, items, coupon, total in AUD", () => {
    const view = receiptView(
      orderReceipt({
        _id: "abcdef12-0000",
        product_name: "24-Hour Website",
        add_ons: [
          { id: "priority-12hr", name: "Priority 12-Hour Delivery", price: 20_000 },
          { id: "domain-setup", name: "Domain Connection Service", price: 5_000 },
        ],
        coupon_code: "SAVE10",
        discount: 5_500,
        amount_total: 49_500,
        amount_paid: 49_500,
        paid_at: new Date("2026-11-26T23:30:00Z"),
      }),
      { name: "Northern Rivers Websites", abn: "51824753556" },
    );
    expect(view).toEqual({
      title: "Receipt",
      seller: "Northern Rivers Websites",
      abn: "ABN 51 824 753 556",
      date: "27 Nov 2026",
      orderNumber: "#abcdef12",
      rows: [
        { label: "24-Hour Website", amount: "$300.00" },
        { label: "Priority 12-Hour Delivery", amount: "$200.00" },
        { label: "Domain Connection Service", amount: "$50.00" },
        { label: "Coupon SAVE10", amount: "-$55.00" },
      ],
      total: { label: "Total paid (AUD)", amount: "$495.00" },
    });
    expect(formatAbn("51 824 753 556")).toBe("51 824 753 556");
    const plain = receiptView(
      orderReceipt({ _id: "x", product_name: "Starter", amount_total: 99_700, amount_paid: 99_700 }),
      {
        name: "N",
        abn: "51824753556",
      },
    );
    expect(plain.rows).toEqual([{ label: "Starter", amount: "$997.00" }]);
  });
});
