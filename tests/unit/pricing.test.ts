import { describe, expect, it } from "vitest";
import { ADD_ONS, BASE_PRICE_CENTS } from "~/content/offer";
import { CHECKOUT_MESSAGES } from "~/domain/checkout";
import { CheckoutSchema } from "~/domain/checkout.schema";
import {
  COUPON_MESSAGES,
  couponProblem,
  normalizeCouponCode,
  offeredAddOns,
  quote,
  type CouponRecord,
  type CouponTerms,
} from "~/domain/pricing";

// Every subset of the four add-ons.
const combinations = Array.from({ length: 2 ** ADD_ONS.length }, (_, mask) =>
  ADD_ONS.filter((_, i) => mask & (1 << i)),
);

const coupons: [string, CouponTerms | null, (subtotal: number) => number][] = [
  ["no coupon", null, (s) => s],
  ["10% off", { code: "TEN", discount_type: "percentage", discount_value: 10 }, (s) => s - Math.round(s * 0.1)],
  [
    "33% off (rounded to the cent)",
    { code: "THIRD", discount_type: "percentage", discount_value: 33 },
    (s) => s - Math.round(s * 0.33),
  ],
  ["100% off", { code: "FREE", discount_type: "percentage", discount_value: 100 }, () => 0],
  ["$50 off", { code: "FIFTY", discount_type: "fixed", discount_value: 5000 }, (s) => s - 5000],
  ["$10,000 off (floored at 0)", { code: "HUGE", discount_type: "fixed", discount_value: 1_000_000 }, () => 0],
];

describe("quote", () => {
  for (const [name, coupon, expected] of coupons) {
    it(`prices all ${combinations.length} add-on combinations with ${name}`, () => {
      for (const addOns of combinations) {
        const subtotal = BASE_PRICE_CENTS + addOns.reduce((s, a) => s + a.price, 0);
        const q = quote({ addOnIds: addOns.map((a) => a.id), coupon });
        expect(q.subtotal).toBe(subtotal);
        expect(q.total).toBe(expected(subtotal));
        expect(q.discount).toBe(subtotal - q.total);
        expect(q.total).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(q.total)).toBe(true);
      }
    });
  }

  it("starts from $300 and adds each add-on at its price", () => {
    expect(quote({ addOnIds: [] }).total).toBe(30_000);
    expect(quote({ addOnIds: ["priority-12hr"] }).total).toBe(50_000);
    expect(quote({ addOnIds: ["logo-design", "domain-setup", "extra-pages"] }).total).toBe(60_000);
    expect(quote({ addOnIds: ADD_ONS.map((a) => a.id) }).total).toBe(80_000);
  });

  it("ignores unknown and repeated add-on ids (the browser only chooses)", () => {
    expect(quote({ addOnIds: ["logo-design", "logo-design", "free-money"] }).addOns.map((a) => a.id)).toEqual([
      "logo-design",
    ]);
  });

  it("prices a package chosen on /packages, and the 24-Hour Website otherwise", () => {
    expect(quote({ packageId: "professional", addOnIds: [] }).product).toMatchObject({
      name: "Professional Website Package",
      price: 199_700,
    });
    expect(quote({ packageId: "nope", addOnIds: [] }).product.price).toBe(BASE_PRICE_CENTS);
  });
});

describe("coupon rules", () => {
  const now = new Date("2026-11-22T00:00:00Z");
  const base: CouponRecord = {
    code: "SAVE",
    discount_type: "percentage",
    discount_value: 10,
    active: true,
    valid_until: null,
    max_uses: null,
    allowed_emails: [],
    allowed_domains: [],
  };
  const check = (c: Partial<CouponRecord> | null, email?: string, timesUsed = 0) =>
    couponProblem(c ? { ...base, ...c } : null, { email, now, timesUsed });

  it("accepts a usable coupon", () => expect(check({})).toBeNull());
  it("refuses an unknown code", () => expect(check(null)).toBe(COUPON_MESSAGES.notValid));
  it("refuses an inactive coupon", () => expect(check({ active: false })).toBe(COUPON_MESSAGES.inactive));
  it("refuses a coupon past valid_until, and accepts it before", () => {
    expect(check({ valid_until: new Date("2026-11-21T23:59:59Z") })).toBe(COUPON_MESSAGES.expired);
    expect(check({ valid_until: new Date("2026-11-22T00:00:01Z") })).toBeNull();
  });
  it("refuses a coupon with no uses left", () => {
    expect(check({ max_uses: 3 }, undefined, 2)).toBeNull();
    expect(check({ max_uses: 3 }, undefined, 3)).toBe(COUPON_MESSAGES.usedUp);
  });
  it("checks allowed e-mails and domains, case-insensitively", () => {
    expect(check({ allowed_emails: ["Vip@Example.com"] }, "vip@example.com")).toBeNull();
    expect(check({ allowed_emails: ["vip@example.com"] }, "other@example.com")).toBe(COUPON_MESSAGES.wrongEmail);
    expect(check({ allowed_domains: ["@Partner.com.au"] }, "jo@partner.com.au")).toBeNull();
    expect(check({ allowed_domains: ["partner.com.au"] }, "jo@evil.com")).toBe(COUPON_MESSAGES.wrongEmail);
    expect(check({ allowed_domains: ["partner.com.au"] })).toBe(COUPON_MESSAGES.needEmail);
  });
  it("uppercases and trims codes", () => expect(normalizeCouponCode("  welcome10 ")).toBe("WELCOME10"));
});

describe("the checkout form", () => {
  const parse = (fields: Record<string, string>) => CheckoutSchema.safeParse(fields);
  it("asks for the e-mail and the terms before payment, in the spec's words", () => {
    const r = parse({ intent: "pay", email: "a@b.au" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe(CHECKOUT_MESSAGES.missing);
    expect(parse({ intent: "pay", email: "a@b.au", terms: "on" }).success).toBe(true);
  });
  it("asks for a code when Apply is pressed with none", () => {
    expect(parse({ intent: "apply-coupon" }).error?.issues[0].message).toBe(
      "Invalid Coupon: Please enter a coupon code",
    );
  });
  it("refuses an unknown intent", () => expect(parse({ intent: "refund-me" }).success).toBe(false));
});

describe("add-ons on a package checkout", () => {
  const text = (packageId: string | null) =>
    Object.fromEntries(offeredAddOns(packageId).map((a) => [a.id, a.description]));
  it("describe the package they are added to, or are not offered there", () => {
    expect(text(null)["extra-pages"]).toBe("Two more pages on top of the five included.");
    expect(text(null)["priority-12hr"]).toBe("Your first draft in 12 hours instead of 24.");
    expect(text("starter")["priority-12hr"]).toBe("Your first draft in 12 hours instead of 48.");
    expect(text("professional")["extra-pages"]).toBe("Two more pages on top of the ten included.");
    expect(Object.keys(text("enterprise"))).toEqual(["logo-design", "domain-setup"]);
  });
  it("charge only what is offered: an add-on posted for a package without it is ignored", () => {
    const q = quote({ packageId: "enterprise", addOnIds: ["priority-12hr", "logo-design"] });
    expect(q.addOns.map((a) => a.id)).toEqual(["logo-design"]);
    expect(q.total).toBe(399_700 + 15_000);
    expect(quote({ packageId: "professional", addOnIds: ["extra-pages"] }).addOns[0].description).toBe(
      "Two more pages on top of the ten included.",
    );
  });
});
