import { describe, expect, it } from "vitest";
import { couponBadge } from "~/domain/pricing";
import { couponFormDefaults, couponRecord } from "~/domain/admin/coupons";
import { CouponFormSchema } from "~/domain/admin/coupons.schema";
import { editFormValues, readEdit } from "~/domain/admin/edit-data";
import { EditDataSchema } from "~/domain/admin/edit-data.schema";
import { storedFields, type StoredSubmission } from "~/domain/intake/data";
import { stepSchema } from "~/domain/intake/schemas";
import { DraftUrlSchema } from "~/domain/admin/order-detail.schema";
import {
  compareByDeadline,
  deadlinePart,
  filterQuery,
  hasActiveFilters,
  type DeadlineFacts,
} from "~/domain/admin/order-filters";
import { parseOrderFilters } from "~/domain/admin/order-filters.schema";
import { draftUrlToast, HISTORY_MESSAGES, historySentence } from "~/domain/admin/order-detail";
import { encodeCursor, parseCursor, SECOND_PART_START } from "~/domain/paging";

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe("the coupon form", () => {
  const good = {
    code: " spring25 ",
    discount_type: "percentage",
    discount_value: "25",
    max_uses: "",
    valid_until: "",
    active: "on",
    allowed_emails: " Jo@Acme.au, ,bo@x.au ",
    allowed_domains: "@Acme.com.au, ",
  };

  it("uppercases the code and trims, lower-cases and drops empties in the lists", () => {
    const v = CouponFormSchema.parse(good);
    expect(v).toMatchObject({
      code: "SPRING25",
      discount_value: 25,
      max_uses: undefined,
      active: true,
      allowed_emails: ["jo@acme.au", "bo@x.au"],
      allowed_domains: ["acme.com.au"],
    });
  });

  it("speaks the spec's messages", () => {
    expect(firstMessage(CouponFormSchema.safeParse({ ...good, code: " " }))).toBe("Please fill in all required fields");
    expect(firstMessage(CouponFormSchema.safeParse({ ...good, discount_value: "" }))).toBe(
      "Please fill in all required fields",
    );
    expect(firstMessage(CouponFormSchema.safeParse({ ...good, discount_value: "101" }))).toBe(
      "Percentage must be between 1 and 100",
    );
    expect(firstMessage(CouponFormSchema.safeParse({ ...good, discount_type: "fixed", discount_value: "0" }))).toBe(
      "Value must be at least 1",
    );
    expect(firstMessage(CouponFormSchema.safeParse({ ...good, max_uses: "0" }))).toBe("Max uses must be at least 1");
    // A 0% coupon hears the percentage rule, not the generic minimum.
    expect(firstMessage(CouponFormSchema.safeParse({ ...good, discount_value: "0" }))).toBe(
      "Percentage must be between 1 and 100",
    );
  });

  it("badges each coupon by checkout's own rule: Active, Expired, Used up or Inactive", () => {
    const now = new Date("2026-11-24T00:00:00Z");
    const base = { active: true, valid_until: null, max_uses: null };
    expect(couponBadge(base, { now, timesUsed: 0 })).toBe("Active");
    expect(couponBadge({ ...base, valid_until: new Date(now.getTime() - 1) }, { now, timesUsed: 0 })).toBe("Expired");
    expect(couponBadge({ ...base, max_uses: 1 }, { now, timesUsed: 1 })).toBe("Used up");
    expect(couponBadge({ ...base, active: false, max_uses: 1 }, { now, timesUsed: 1 })).toBe("Inactive");
    // Valid until 31 Dec means all of that day in Sydney.
    const until = couponRecord({ ...CouponFormSchema.parse(good), valid_until: "2026-12-31" }).valid_until;
    expect(couponBadge({ ...base, valid_until: until }, { now: new Date("2026-12-31T12:59:00Z"), timesUsed: 0 })).toBe(
      "Active",
    );
    expect(couponBadge({ ...base, valid_until: until }, { now: new Date("2026-12-31T13:00:00Z"), timesUsed: 0 })).toBe(
      "Expired",
    );
  });

  it("stores a fixed discount in cents and reads it back in dollars", () => {
    const record = couponRecord(
      CouponFormSchema.parse({
        ...good,
        discount_type: "fixed",
        discount_value: "50",
        max_uses: "10",
        valid_until: "2026-12-31",
      }),
    );
    expect(record).toMatchObject({ discount_value: 5000, max_uses: 10 });
    expect(record.valid_until?.toISOString()).toBe("2026-12-31T12:59:59.999Z");
    expect(couponFormDefaults(record)).toMatchObject({
      discount_value: "50",
      max_uses: "10",
      valid_until: "2026-12-31",
      active: "on",
    });
  });
});

describe("Edit Data", () => {
  const values = editFormValues({
    business_name: "Acme",
    services_list: [{ name: "Pipes", price: undefined }],
    social_links: { facebook: "https://fb.example" },
    needs_contact_form: true,
  });

  it("shows lists as JSON and flags as yes/no", () => {
    expect(values.business_name).toBe("Acme");
    expect(JSON.parse(values.services_list)).toEqual([{ name: "Pipes" }]);
    expect(values.needs_contact_form).toBe("yes");
    expect(values.wants_review_system).toBe("");
  });

  it("accepts what it pre-fills for an intake as stored (a platform left blank comes back null)", () => {
    // The step's parsed value leaves blank platforms undefined; the MongoDB driver stores undefined as null.
    const step5 = stepSchema(5, "next").parse({
      primaryDomain: "acme.com.au",
      socialLinks: { facebook: "https://fb.example/acme" },
    }) as Record<string, unknown>;
    const social = { facebook: null, instagram: null, youtube: null, linkedin: null, ...(step5.socialLinks as object) };
    const stored: StoredSubmission = { business_name: "Acme", ...storedFields(5, step5), social_links: social };
    const shown = editFormValues(stored);
    expect(JSON.parse(shown.social_links)).toEqual({ facebook: "https://fb.example/acme" });
    const { set, ignored } = readEdit(EditDataSchema.parse(shown));
    expect(ignored).toEqual([]);
    expect(set).toMatchObject({
      business_name: "Acme",
      social_links: { facebook: "https://fb.example/acme" },
      primary_domain: "acme.com.au",
    });
    // The stored shape typed back in is accepted too: nulls and blanks are left out.
    const typed = readEdit(EditDataSchema.parse({ ...shown, social_links: JSON.stringify(social) }));
    expect(typed.ignored).toEqual([]);
    expect(typed.set.social_links).toEqual({ facebook: "https://fb.example/acme" });
  });

  it("ignores a JSON edit that does not parse, names it, and keeps the rest", () => {
    const parsed = EditDataSchema.parse({ ...values, headline: "New", brand_colors: "[red" });
    const { set, ignored } = readEdit(parsed);
    expect(set.headline).toBe("New");
    expect("brand_colors" in set).toBe(false);
    expect(ignored).toEqual([
      {
        name: "brand_colors",
        label: "Brand colours",
        message: "Brand colours: not valid JSON, so this change was ignored",
      },
    ]);
    expect(readEdit(EditDataSchema.parse({ ...values, brand_colors: '["red","blue"]' })).set.brand_colors).toEqual([
      "red",
      "blue",
    ]);
    expect(readEdit(EditDataSchema.parse({ ...values, testimonials: '["just text"]' })).ignored[0].message).toBe(
      'Testimonials must be a JSON list, such as ["one", "two"], so this change was ignored',
    );
    expect(readEdit(EditDataSchema.parse({ ...values, social_links: "[]" })).ignored[0].message).toMatch(
      /^Social links must be a JSON object/,
    );
    expect(readEdit(EditDataSchema.parse({ ...values, social_links: '{"facebook": 3}' })).ignored).toHaveLength(1);
  });

  it("refuses a text over its bound, naming the field", () => {
    expect(firstMessage(EditDataSchema.safeParse({ ...values, headline: "x".repeat(2001) }))).toBe(
      "Headline must be at most 2000 characters",
    );
  });
});

describe("the draft URL", () => {
  it("must not be blank, and becomes a web address", () => {
    expect(firstMessage(DraftUrlSchema.safeParse({ draftUrl: "  " }))).toBe("Please enter a draft URL");
    expect(DraftUrlSchema.parse({ draftUrl: " draft.example.com/acme " }).draftUrl).toBe(
      "https://draft.example.com/acme",
    );
    expect(firstMessage(DraftUrlSchema.safeParse({ draftUrl: "javascript:alert(1)" }))).toBe(
      "Enter a web address starting with http:// or https://",
    );
  });

  it("refused as empty is the 'URL Required' toast, told by the issue's path and code; other refusals stay on the field", () => {
    const issue = (draftUrl: unknown) => {
      const parsed = DraftUrlSchema.safeParse({ draftUrl });
      if (parsed.success) throw new Error("expected a refusal");
      return parsed.error.issues[0];
    };
    expect(draftUrlToast(issue(undefined))?.title).toBe("URL Required");
    expect(draftUrlToast(issue("   "))?.title).toBe("URL Required");
    expect(draftUrlToast(issue("javascript:alert(1)"))).toBeNull();
    expect(draftUrlToast(issue(`https://example.com/${"a".repeat(2000)}`))).toBeNull();
  });
});

describe("the orders list's filters", () => {
  it("reset to none: an empty query string, nothing active, and the filter form's key changes", () => {
    const applied = parseOrderFilters(
      new URLSearchParams("q=Someone@Example.test&status=paid&date=week&sort=deadline"),
    );
    expect(hasActiveFilters(applied)).toBe(true);
    const reset = parseOrderFilters(new URLSearchParams(""));
    expect(hasActiveFilters(reset)).toBe(false);
    // The form is keyed by this string, so with JavaScript a reset remounts every field empty.
    expect(filterQuery(reset)).toBe("");
    expect(filterQuery(applied)).not.toBe(filterQuery(reset));
  });
});

describe("the deadline sort", () => {
  const at = (h: number) => new Date(Date.UTC(2026, 10, 24, h));
  const orders: DeadlineFacts[] = [
    { _id: "a-not-started", created_at: at(9) },
    { _id: "b-due-later", created_at: at(1), clock_deadline: at(30) },
    { _id: "c-delivered", created_at: at(8), clock_deadline: at(20), draft_delivered_at: at(10) },
    { _id: "d-overdue", created_at: at(2), clock_deadline: at(5) },
    { _id: "e-refunded", created_at: at(7), clock_deadline: at(6), refunded_at: at(7) },
    { _id: "f-pending", created_at: at(10), clock_deadline: null },
    { _id: "g-due-soon", created_at: at(3), clock_deadline: at(12) },
  ];

  it("keeps every order, deadlines still to meet first (soonest first), then the rest newest first", () => {
    const sorted = [...orders].sort(compareByDeadline).map((o) => o._id);
    expect(sorted).toHaveLength(orders.length);
    expect(sorted).toEqual([
      "d-overdue",
      "g-due-soon",
      "b-due-later",
      "f-pending",
      "a-not-started",
      "c-delivered",
      "e-refunded",
    ]);
  });

  it("puts an order with no running clock in the second part, whatever its status", () => {
    expect(deadlinePart({ clock_deadline: at(5) })).toBe(1);
    expect(deadlinePart({})).toBe(2);
    expect(deadlinePart({ clock_deadline: at(5), draft_delivered_at: at(4) })).toBe(2);
    expect(deadlinePart({ clock_deadline: at(5), refunded_at: at(4) })).toBe(2);
  });

  it("ties are broken by id, the same way in both parts as their keyset pages", () => {
    const twins: DeadlineFacts[] = [
      { _id: "y", created_at: at(1), clock_deadline: at(5) },
      { _id: "x", created_at: at(1), clock_deadline: at(5) },
      { _id: "q", created_at: at(1) },
      { _id: "p", created_at: at(1) },
    ];
    expect([...twins].sort(compareByDeadline).map((o) => o._id)).toEqual(["x", "y", "q", "p"]);
  });

  it("marks a cursor in the second part, and reads it back", () => {
    const cursor = { at: at(3), id: "some-id", part: 2 as const };
    expect(encodeCursor(cursor)).toBe(`2:${at(3).getTime()}_some-id`);
    expect(parseCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(parseCursor(encodeCursor({ at: at(3), id: "some-id" }))).toEqual({ at: at(3), id: "some-id" });
    expect(parseCursor(encodeCursor(SECOND_PART_START))).toEqual(SECOND_PART_START);
    expect(parseCursor("3:123_x")).toBeNull();
  });
});

describe("an order's admin history in sentences", () => {
  it("says each recorded action as people read it, never its code", () => {
    expect(historySentence("revision.1.enabled")).toBe("Revision round 1 enabled");
    expect(historySentence("revision.3.disabled")).toBe("Revision round 3 disabled");
    expect(historySentence("order.draft_url", { url: "https://draft.example.au" })).toBe("Draft URL saved");
    expect(historySentence("ai_prompt.generated")).toBe("AI prompt generated");
    expect(historySentence("revision_prompt.generated", { round: 2 })).toBe("Revision 2 prompt generated");
    expect(historySentence("submission.edited", { fields: 1 })).toBe("Intake data edited (1 field)");
    expect(historySentence("order.refunded", { amount: 30_000 })).toBe("Refunded $300.00");
    expect(historySentence("order.status", { status: "in_progress" })).toBe("Status set to in progress");
    expect(historySentence("token.renewed", { expires_at: "2026-11-30T04:00:00.000Z" })).toBe(
      "Intake link renewed until 30 Nov 2026, 3:00 pm",
    );
    for (const [action, sentence] of Object.entries(HISTORY_MESSAGES)) {
      expect(sentence({}), action).not.toMatch(/[._]/);
    }
    expect(historySentence("something.new")).toBe("something.new");
  });
});
