import { orderReceipt, receiptView } from "~/domain/receipt";
import { describe, expect, it } from "vitest";
import { intakeConfirmation, orderConfirmation } from "~/server/mail/messages.server";
import { deliveryWindowHours } from "~/domain/delivery-clock";
import { revisionRounds } from "~/domain/orders";
import { orderIncludes, pagesIncluded, promise, tooManyPages } from "~/domain/order-includes";

const addOns = (...ids: string[]) => ids.map((id) => ({ id }));
const website = { product_id: "24-hour-website", product_name: "24-Hour Website" };
const starter = { product_id: "starter", product_name: "Starter" };

describe("what an order includes: one rule for the clock, the rounds, the pages and every sentence", () => {
  it("the 24-Hour Website: 24 hours, 3 rounds, 5 pages", () => {
    expect(orderIncludes(website)).toMatchObject({
      bought: "Your 24-Hour Website",
      windowHours: 24,
      rounds: 3,
      pages: 5,
    });
  });

  it("Starter: 48 hours, 1 round, 5 pages; named as the package bought", () => {
    expect(orderIncludes(starter)).toMatchObject({
      bought: "Your Starter package",
      windowHours: 48,
      rounds: 1,
      pages: 5,
    });
  });

  it("Professional: 24 hours, 2 rounds, 10 pages; Enterprise: 12 hours, 3 rounds, unlimited pages", () => {
    expect(orderIncludes({ product_id: "professional" })).toMatchObject({ windowHours: 24, rounds: 2, pages: 10 });
    expect(orderIncludes({ product_id: "enterprise" })).toMatchObject({ windowHours: 12, rounds: 3, pages: null });
  });

  it("Priority makes the window 12 hours; Extra Pages adds 2 pages", () => {
    expect(orderIncludes({ ...website, add_ons: addOns("priority-12hr", "extra-pages") })).toMatchObject({
      windowHours: 12,
      pages: 7,
    });
    expect(orderIncludes({ ...starter, add_ons: addOns("priority-12hr") }).windowHours).toBe(12);
    expect(pagesIncluded({ productId: "starter", addOnIds: ["extra-pages"] })).toBe(7);
  });

  it("reads the same window as the delivery clock and the same rounds as the revision rounds", () => {
    for (const product_id of ["24-hour-website", "starter", "professional", "enterprise"]) {
      for (const ids of [[], ["priority-12hr"]]) {
        const order = { product_id, add_ons: addOns(...ids) };
        expect(orderIncludes(order).windowHours).toBe(deliveryWindowHours({ productId: product_id, addOnIds: ids }));
        expect(orderIncludes(order).rounds).toBe(
          revisionRounds({ status: "paid", product_id, intake_progress: 0 }).length,
        );
      }
    }
  });

  it("the sentences say what was bought", () => {
    const s = orderIncludes(starter);
    expect(promise.guaranteeTitle(s)).toBe("Our 48-Hour Guarantee");
    expect(promise.guarantee(s)).toBe(
      "Your first draft within 48 hours of receiving all your details, or a full refund.",
    );
    expect(promise.rounds(s)).toBe("1 round of revisions");
    expect(promise.paidFor(s)).toBe("Your Starter package is paid for.");
    expect(promise.included(s)).toBe(
      "Included: your first draft within 48 hours of receiving your details (or a full refund), 1 round of revisions and up to 5 pages.",
    );
    const w = orderIncludes({ ...website, add_ons: addOns("priority-12hr") });
    expect(promise.guaranteeTitle(w)).toBe("Our 12-Hour Guarantee");
    expect(promise.rounds(w)).toBe("up to 3 rounds of revisions");
    expect(promise.paidFor(w)).toBe("Your 24-Hour Website is paid for.");
    expect(promise.pages(orderIncludes({ product_id: "enterprise" }))).toBe("unlimited pages");
  });

  it("the payment and 'we received your details' e-mails state the order's own window and rounds", () => {
    const includes = orderIncludes(starter);
    const paid = orderConfirmation({
      orderId: "abcdef123",
      productName: "Starter",
      intakeUrl: "https://x/i",
      statusUrl: "https://x/s",
      validDays: 30,
      includes,
      receipt: receiptView(
        orderReceipt({ _id: "abcdef123", product_name: "Starter", amount_total: 99_700, amount_paid: 99_700 }),
        {
          name: "24-Hour Website",
          abn: "51824753556",
        },
      ),
    });
    expect(paid.text).toContain("within 48 hours");
    expect(paid.text).not.toContain("24 hours");
    const received = intakeConfirmation({ businessName: "Acme", updated: false, includes });
    expect(received.text).toContain("within 48 hours");
    expect(received.text).toContain("ask for 1 round of revisions");
    expect(received.text).not.toMatch(/24 hours|3 rounds/);
  });
});

describe("step 7: no more pages than the order includes", () => {
  it("refuses more pages than included, naming the Extra Pages add-on and /contact", () => {
    const six = ["Home", "About", "Services", "Contact", "Gallery", "FAQ"];
    expect(tooManyPages(six.slice(0, 5), 5)).toBeNull();
    expect(tooManyPages(six, 5)).toBe(
      "Your order includes up to 5 pages. For more, add the 2 Extra Pages add-on to a later order, or ask us for a quote at /contact.",
    );
    expect(tooManyPages(six, 7)).toBeNull();
    expect(tooManyPages(six, null)).toBeNull();
    expect(tooManyPages(undefined, 5)).toBeNull();
  });
});
