import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PAGES } from "~/domain/intake/options";
import { orderIncludes } from "~/domain/order-includes";
import { buildRevisionPrompt, completenessTone, promptFor, promptView, promptWarnings } from "~/domain/ai-prompt";
import { RevisionPromptSchema } from "~/domain/ai-prompt.schema";
import { aiSafeData, PRIVATE_FIELDS } from "~/domain/privacy";

/** A value no public text could produce by chance: what must never reach the prompt. */
const secret = fc.stringMatching(/^[a-z0-9]{6,12}$/).map((s) => `SECRET${s}X`);

/** Protected fields whose raw value must not appear (they arrive generalised, or as a count or platform list). */
const GENERALISED = [
  "abn_acn",
  "business_legal_name",
  "business_hours",
  "physical_address",
  "service_area",
  "primary_domain",
  "competitor_urls",
] as const;

const words = fc
  .array(fc.constantFrom("fresh", "local", "bread", "plumbing", "Lismore", "quality", "since", "1998", "&", "<b>"), {
    minLength: 1,
    maxLength: 8,
  })
  .map((w) => w.join(" "));

const submission = fc.record({
  // Public fields: ordinary text, sometimes with a contact detail typed into it.
  business_name: words,
  business_description: fc
    .tuple(words, fc.option(secret))
    .map(([w, s]) => (s ? `${w} email ${s}@mail.example.com or call 0412 345 678` : w)),
  website_purpose: fc.constantFrom("lead_generation", "bookings", "online_sales"),
  main_cta: words,
  headline: fc.option(words, { nil: null }),
  business_type: fc.constantFrom(
    "trades",
    "professional_services",
    "hospitality",
    "retail",
    "health_wellness",
    "other",
    "creative",
  ),
  brand_colors: fc.array(fc.constantFrom("#0b5d3b", "navy", "gold"), { maxLength: 3 }),
  key_points: fc.array(words, { maxLength: 3 }),
  services_list: fc.array(
    fc.record({
      name: words,
      description: words,
      price: fc.constantFrom("$90", ""),
      showPricing: fc.boolean(),
      secretNote: secret,
    }),
    { maxLength: 3 },
  ),
  // Private fields: never sent.
  contact_email: secret.map((s) => `${s}@example.com`),
  contact_phone: secret,
  project_contact_name: secret,
  project_contact_email: secret,
  project_contact_phone: secret,
  staff_bios: fc.array(fc.record({ name: secret, role: words, bio: secret }), { maxLength: 2 }),
  testimonials: fc.array(fc.record({ author: secret, text: secret, rating: fc.constant(5) }), { maxLength: 2 }),
  review_links: fc.array(fc.record({ platform: fc.constant("google"), url: secret }), { maxLength: 2 }),
  google_analytics_id: secret,
  facebook_pixel_id: secret,
  additional_details: secret,
  // Protected fields: generalised.
  abn_acn: secret,
  business_legal_name: secret,
  business_hours: secret,
  physical_address: secret.map((s) => `12 ${s} Street`),
  service_area: secret,
  primary_domain: secret.map((s) => `${s}.com.au`),
  competitor_urls: fc.array(
    secret.map((s) => `https://${s}.example`),
    { maxLength: 3 },
  ),
  social_links: fc.record({ facebook: secret.map((s) => `https://facebook.com/${s}`) }),
  logo_url: fc.option(
    secret.map((s) => `https://cdn.example/${s}.png`),
    { nil: null },
  ),
  uploaded_photos: fc.array(secret, { maxLength: 2 }),
  status: fc.constant("submitted"),
  ai_processing_consent: fc.constant(true),
});

function secretsIn(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/SECRET[a-z0-9]+X/g)].map((m) => m[0]);
}

/** A 24-Hour Website: 5 pages. */
const WEBSITE = orderIncludes({ product_id: "24-hour-website" });

describe("the AI prompt", () => {
  it("never contains a private field, a contact detail or a protected field's raw value (property test)", () => {
    fc.assert(
      fc.property(submission, (s) => {
        const prompt = promptFor(s, WEBSITE)!;
        expect(prompt).toBeTypeOf("string");
        const hidden = [...PRIVATE_FIELDS, ...GENERALISED, "logo_url", "uploaded_photos", "services_list"].flatMap(
          (f) => secretsIn((s as Record<string, unknown>)[f]),
        );
        hidden.push(...secretsIn(s.business_description));
        for (const value of hidden) expect(prompt).not.toContain(value);
        expect(prompt).not.toContain("0412 345 678");
        expect(prompt).not.toMatch(/@mail\.example\.com/);
      }),
      { numRuns: 300 },
    );
  });

  it("holds the spec's technical requirements and the tone for the business type", () => {
    const prompt = promptFor(
      {
        status: "submitted",
        ai_processing_consent: true,
        business_name: "Bright Spark",
        business_type: "trades",
        website_purpose: "lead_generation",
        business_description: "Electricians.",
      },
      WEBSITE,
    )!;
    for (const needle of [
      "React with TypeScript",
      "Tailwind",
      "PageSpeed score above 90",
      "under 60 characters",
      "under 160 characters",
      "at most 5 fields",
      "Practical, trustworthy",
    ]) {
      expect(prompt).toContain(needle);
    }
    expect(prompt).toContain("Business name: Bright Spark");
    expect(prompt).toContain("Website purpose: Get more enquiries");
  });

  it("is built only from aiSafeData: the same view the customer previewed", () => {
    const s = {
      status: "submitted" as const,
      ai_processing_consent: true,
      business_name: "Acme",
      abn_acn: "51 824 753 556",
      primary_domain: "acme.com.au",
    };
    const safe = aiSafeData(s);
    const prompt = promptFor(s, WEBSITE)!;
    expect(prompt).toContain(`ABN/ACN: ${String(safe.abn_acn)}`);
    expect(prompt).toContain("Domain: A .com.au domain");
    expect(prompt).not.toContain("51 824 753 556");
  });

  it("asks for the pages the order includes, never more", () => {
    const s = {
      status: "submitted" as const,
      ai_processing_consent: true,
      business_name: "Acme",
      pages_needed: [...PAGES],
    };
    const pagesOf = (prompt: string | null) => /Pages[^\n]*:\n((?:- .*\n?)*)/.exec(prompt ?? "")!;
    const withExtra = pagesOf(
      promptFor(s, orderIncludes({ product_id: "24-hour-website", add_ons: [{ id: "extra-pages" }] })),
    );
    expect(withExtra[0]).toMatch(/^Pages \(the order includes up to 7\):/);
    expect(withExtra[1].trim().split("\n")).toEqual(PAGES.slice(0, 7).map((p) => `- ${p}`));
    expect(pagesOf(promptFor(s, WEBSITE))[1].trim().split("\n")).toHaveLength(5);
    const unlimited = pagesOf(promptFor(s, orderIncludes({ product_id: "enterprise" })));
    expect(unlimited[0]).toMatch(/^Pages:/);
    expect(unlimited[1].trim().split("\n")).toHaveLength(8);
  });

  it("states what shapes the build: pages with extra pages, logo design, domain connection, priority", () => {
    const s = { status: "submitted" as const, ai_processing_consent: true, business_name: "Acme" };
    const boughtOf = (prompt: string | null) =>
      /## What was bought\n((?:.+\n?)*)/
        .exec(prompt ?? "")![1]
        .trim()
        .split("\n");
    const everything = orderIncludes({
      product_id: "24-hour-website",
      add_ons: [{ id: "priority-12hr" }, { id: "logo-design" }, { id: "domain-setup" }, { id: "extra-pages" }],
    });
    expect(boughtOf(promptFor(s, everything))).toEqual([
      "Pages: up to 7 (5 with the package plus 2 from 2 Extra Pages)",
      "Logo design: wanted (Professional Logo Design bought): we design the logo; leave room for it in the header",
      "Domain connection: wanted (Domain Connection Service bought): we connect the customer's domain to the site",
      "Priority: yes (Priority 12-Hour Delivery bought): the first draft is due within 12 hours",
    ]);
    expect(boughtOf(promptFor(s, orderIncludes({ product_id: "starter" })))).toEqual([
      "Pages: up to 5",
      "Logo design: not bought",
      "Domain connection: not bought (the customer connects their own domain)",
      "Priority: no: the first draft is due within 48 hours",
    ]);
    expect(boughtOf(promptFor(s, orderIncludes({ product_id: "enterprise" })))[0]).toBe("Pages: unlimited");
  });

  it("names a service's price beside its name, not after its description's full stop", () => {
    const prompt = promptFor(
      {
        status: "submitted",
        ai_processing_consent: true,
        business_name: "Leak Busters",
        services_list: [
          { name: "Stormwater", description: "We clear blocked stormwater drains.", showPricing: true, price: "$99" },
          { name: "Leak detection", description: "Found without digging.", showPricing: false, price: "$150" },
        ],
      },
      WEBSITE,
    )!;
    expect(prompt).toContain("Stormwater ($99): We clear blocked stormwater drains.");
    expect(prompt).toContain("Leak detection: Found without digging.");
    expect(prompt).not.toContain(".: ");
    expect(prompt).not.toContain("$150");
  });

  it("is not built when the customer opted out of AI processing, or before the intake is submitted", () => {
    expect(promptView({ status: "submitted", ai_processing_consent: false }).state).toBe("opted-out");
    expect(promptFor({ status: "submitted", ai_processing_consent: false, business_name: "Acme" }, WEBSITE)).toBeNull();
    expect(promptView({ status: "draft", ai_processing_consent: true }).state).toBe("no-submission");
    expect(promptView(null).state).toBe("no-submission");
  });

  it("warns about what is missing, in the spec's words", () => {
    expect(promptWarnings({ contact_email: "a@b.co" })).toEqual([
      "Missing critical contact information (email or phone)",
      "No business name",
      "No business description",
      "No brand colours",
      "No logo",
      "No photos",
      "No headline",
    ]);
    expect(
      promptWarnings({
        contact_email: "a@b.co",
        contact_phone: "1",
        business_name: "x",
        business_description: "y",
        brand_colors: ["red"],
        logo_url: "u",
        uploaded_photos: ["p"],
        headline: "h",
      }),
    ).toEqual([]);
  });

  it("colours the completeness badge at 90 and 70", () => {
    expect([100, 90, 89, 70, 69, 0].map(completenessTone)).toEqual(["green", "green", "amber", "amber", "red", "red"]);
  });
});

describe("the revision prompt", () => {
  it("needs notes, in the spec's words", () => {
    const r = RevisionPromptSchema.safeParse({ notes: "   " });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe("Please enter revision notes before generating prompt");
  });

  it("carries the feedback and notes with contact details scrubbed", () => {
    const prompt = buildRevisionPrompt({
      safe: { business_name: "Acme", business_type: "retail" },
      round: 2,
      draftUrl: "https://draft.example",
      feedback: "Call me on 0412 345 678 about the logo",
      notes: "Bigger logo",
    });
    expect(prompt).toContain("revision round 2");
    expect(prompt).toContain("https://draft.example");
    expect(prompt).toContain("Bigger logo");
    expect(prompt).not.toContain("0412 345 678");
  });
});
