import { describe, expect, it } from "vitest";
import { storedConsent, TICKED_CONSENTS } from "../support/consent";
import { fieldLabel, namedError } from "~/domain/intake/labels";
import {
  canOpenStep,
  completedSteps,
  formValues,
  furthestStep,
  photosWithoutAltErrors,
  storedFields,
  type StoredSubmission,
} from "~/domain/intake/data";
import { changedFields, changedStepNames, stepAnswerFields, submittedAnswers } from "~/domain/intake/answers";
import { intakeProgress } from "~/domain/completeness";
import { INTENT_VALUES, intentMode, parseIntakeIntent } from "~/domain/intake/intents";
import { ITEM_ID, postedIds, storedIds, withoutPostedItem } from "~/domain/intake/list-ids";
import { choiceLabel, PRICING_APPROACHES } from "~/domain/intake/options";
import {
  CONSENT_NOT_TICKED,
  keepListShapes,
  LAUNCH_DATE_PAST,
  LIST_SHAPE_MESSAGE,
  PRICE_WITHOUT_TICK,
  stepSchema,
} from "~/domain/intake/schemas";
import { mapsSearchUrl, serviceAreaPlace } from "~/domain/intake/page";
import { DAY_MS, sydneyDateInput } from "~/domain/dates";
import {
  addDays,
  adminTokenState,
  linkTimeLeft,
  MAX_SELF_RENEWALS,
  RENEWAL_DAYS,
  TOKEN_VALID_DAYS,
  tokenState,
} from "~/domain/tokens";
import {
  aiSafeData,
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  consentAuditAction,
  LOCAL_AREA,
  missingForAi,
  optedOutOfAi,
  PRIVATE_FIELDS,
  REGISTERED_BUSINESS,
} from "~/domain/privacy";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read any step's parsed values, whose types differ per step
type Parsed = { success: boolean; data?: Record<string, any>; error?: { issues: { message: string }[] } };
const parse = (step: number, mode: "next" | "draft", values: unknown) =>
  stepSchema(step, mode).safeParse(values) as Parsed;
const firstMessage = (r: ReturnType<typeof parse>) => r.error?.issues[0]?.message;
const basics = {
  businessName: "Acme",
  contactEmail: "a@acme.au",
  contactPhone: "0400 000 000",
  businessType: "trades",
  businessDescription: "0123456789",
};

describe("step schemas at their bounds", () => {
  it("step 1: required fields on Next, but not when saving a draft", () => {
    expect(parse(1, "next", basics).success).toBe(true);
    expect(firstMessage(parse(1, "next", { ...basics, businessName: undefined }))).toBe(
      "Please enter your trading name",
    );
    expect(parse(1, "draft", { businessName: "Acme" }).success).toBe(true);
  });
  it("step 1: business name 1-200, phone 20, description 10-2000, e-mail 255", () => {
    expect(parse(1, "next", { ...basics, businessName: "x".repeat(200) }).success).toBe(true);
    expect(firstMessage(parse(1, "next", { ...basics, businessName: "x".repeat(201) }))).toBe(
      "Must be 200 characters or fewer",
    );
    expect(firstMessage(parse(1, "next", { ...basics, contactPhone: "1".repeat(21) }))).toBe(
      "Must be 20 characters or fewer",
    );
    expect(firstMessage(parse(1, "next", { ...basics, businessDescription: "123456789" }))).toBe(
      "Please describe your business in at least 10 characters",
    );
    expect(parse(1, "next", { ...basics, businessDescription: "x".repeat(2000) }).success).toBe(true);
    expect(parse(1, "next", { ...basics, businessDescription: "x".repeat(2001) }).success).toBe(false);
    expect(firstMessage(parse(1, "next", { ...basics, contactEmail: "nope" }))).toBe("Invalid email address");
  });
  it("step 1: drops answers that do not apply (domain without yes, other text without Other)", () => {
    const r = parse(1, "next", { ...basics, hasDomain: "no", domainUrl: "acme.au", businessTypeOther: "Bakers" });
    expect(r.data).toMatchObject({ hasDomain: false, domainUrl: undefined, businessTypeOther: undefined });
  });
  it("URLs must be valid or empty; a bare domain is read as https", () => {
    expect(firstMessage(parse(5, "draft", { googleBusinessUrl: "not a url" }))).toBe("Invalid URL format");
    expect(parse(5, "draft", { googleBusinessUrl: "g.page/acme" }).data?.googleBusinessUrl).toBe("https://g.page/acme");
    // A host without a dot is no page anyone can open ("https://@leakbusters" was stored).
    expect(firstMessage(parse(5, "draft", { googleBusinessUrl: "https://@leakbusters" }))).toBe("Invalid URL format");
    expect(firstMessage(parse(5, "draft", { googleBusinessUrl: "leakbusters" }))).toBe("Invalid URL format");
  });
  it("a launch date in the past is refused; today and later are taken", () => {
    const today = sydneyDateInput(new Date());
    const yesterday = sydneyDateInput(new Date(Date.now() - DAY_MS));
    expect(parse(10, "next", { preferredLaunchDate: today }).data?.preferredLaunchDate).toBe(today);
    expect(parse(10, "next", { preferredLaunchDate: "2999-01-01" }).success).toBe(true);
    expect(firstMessage(parse(10, "next", { preferredLaunchDate: yesterday }))).toBe(LAUNCH_DATE_PAST);
    expect(firstMessage(parse(10, "draft", { preferredLaunchDate: "2020-02-02" }))).toBe(LAUNCH_DATE_PAST);
  });
  it("the map search names the business and the first place of its service area, not the sentence", () => {
    expect(serviceAreaPlace("Lismore, Ballina and surrounds within 50 km")).toBe("Lismore");
    expect(serviceAreaPlace("Servicing the Northern Rivers from Tweed to Yamba")).toBe("Northern Rivers");
    expect(serviceAreaPlace("Byron Bay & hinterland")).toBe("Byron Bay");
    expect(serviceAreaPlace("Gold Coast")).toBe("Gold Coast");
    expect(serviceAreaPlace("")).toBeNull();
    expect(serviceAreaPlace("x".repeat(41))).toBeNull();
    expect(mapsSearchUrl("Leak Busters", "Lismore, Ballina and surrounds within 50 km")).toBe(
      "https://www.google.com/maps/search/?api=1&query=Leak%20Busters%20Lismore",
    );
    expect(mapsSearchUrl("Leak Busters", undefined)).toBe(
      "https://www.google.com/maps/search/?api=1&query=Leak%20Busters",
    );
    expect(mapsSearchUrl("  ", "Lismore")).toBeNull();
  });
  it("a social field takes a full address or a handle, and stores the profile's address", () => {
    const social = (socialLinks: Record<string, string>) => parse(5, "draft", { socialLinks });
    expect(social({ instagram: "@leakbusters" }).data?.socialLinks).toEqual({
      instagram: "https://www.instagram.com/leakbusters",
    });
    expect(
      social({ facebook: "leakbusters", instagram: "@leak.busters", youtube: "@LeakBusters", linkedin: "leak-busters" })
        .data?.socialLinks,
    ).toEqual({
      facebook: "https://www.facebook.com/leakbusters",
      instagram: "https://www.instagram.com/leak.busters",
      youtube: "https://www.youtube.com/@LeakBusters",
      linkedin: "https://www.linkedin.com/company/leak-busters",
    });
    expect(social({ instagram: "instagram.com/leakbusters" }).data?.socialLinks).toEqual({
      instagram: "https://instagram.com/leakbusters",
    });
    expect(firstMessage(social({ instagram: "insta handle with spaces" }))).toBe("Invalid URL format");
    expect(firstMessage(social({ facebook: "@" }))).toBe("Invalid URL format");
  });
  it("lists: blanks dropped, and the caps (10 colours of 50, 20 key points of 500, 3 competitors, 20 keywords of 100)", () => {
    expect(parse(4, "draft", { brandColors: ["navy", "", "gold"] }).data?.brandColors).toEqual(["navy", "gold"]);
    expect(firstMessage(parse(4, "draft", { brandColors: Array(11).fill("red") }))).toBe("At most 10 colours");
    expect(firstMessage(parse(4, "draft", { brandColors: ["x".repeat(51)] }))).toBe(
      "Each colour must be 50 characters or fewer",
    );
    expect(firstMessage(parse(8, "draft", { keyPoints: Array(21).fill("p") }))).toBe("At most 20 key points");
    expect(firstMessage(parse(5, "draft", { competitorUrls: ["a.au", "b.au", "c.au", "d.au"] }))).toBe(
      "At most 3 competitor URLs",
    );
    expect(firstMessage(parse(5, "draft", { targetKeywords: ["k".repeat(101)] }))).toBe(
      "Each keyword must be 100 characters or fewer",
    );
  });
  it("rows: blank rows go; a rating alone (5 by default) is not a row", () => {
    expect(
      parse(3, "draft", {
        servicesList: [
          { name: "Wiring", showPricing: "on", price: "$99" },
          { name: "", description: "" },
        ],
      }).data?.servicesList,
    ).toEqual([{ name: "Wiring", showPricing: true, price: "$99" }]);
    expect(
      parse(6, "draft", {
        testimonials: [
          { author: "Jo", text: "Great" },
          { author: "", text: "", rating: "5" },
        ],
      }).data?.testimonials,
    ).toEqual([{ author: "Jo", text: "Great", rating: 5 }]);
    expect(firstMessage(parse(6, "draft", { testimonials: [{ author: "Jo", text: "Hi", rating: "6" }] }))).toBe(
      "Rating must be 1 to 5",
    );
  });
  it("rows: a row typed in but missing a required box is refused with a message on that box, in every mode", () => {
    const issues = (r: Parsed) =>
      (r.error as { issues: { path: unknown[]; message: string }[] } | undefined)?.issues.map((i) => [
        i.path.join("."),
        i.message,
      ]);
    expect(issues(parse(6, "draft", { testimonials: [{ author: "Jo", text: "Great" }, { author: "Sam" }] }))).toEqual([
      ["testimonials.1.text", "Please add what they said"],
    ]);
    expect(issues(parse(6, "next", { testimonials: [{ text: "Lovely work" }] }))).toEqual([
      ["testimonials.0.author", "Please add the customer's name"],
    ]);
    expect(issues(parse(10, "draft", { staffBios: [{ role: "Apprentice" }] }))).toEqual([
      ["staffBios.0.name", "Please add this person's name, or clear their boxes"],
    ]);
    expect(issues(parse(3, "draft", { servicesList: [{ description: "no name" }] }))).toEqual([
      ["servicesList.0.name", "Please name this service, or clear its boxes"],
    ]);
    expect(issues(parse(6, "draft", { reviewLinks: [{ platform: "Google" }] }))).toEqual([
      ["reviewLinks.0.url", "Please add the link, or clear the platform"],
    ]);
  });
  it("rows: a price typed without its 'show price' tick is pointed out, not dropped", () => {
    const r = parse(3, "draft", { servicesList: [{ name: "A", price: "$1" }] });
    expect(firstMessage(r)).toBe(PRICE_WITHOUT_TICK);
    expect(r.error?.issues[0]).toMatchObject({ path: ["servicesList", 0, "price"] });
  });
  it("pages always include Home and Contact", () => {
    expect(parse(7, "draft", { pagesNeeded: ["FAQ"] }).data?.pagesNeeded).toEqual(["Home", "Contact", "FAQ"]);
  });
  it("step 9 needs the acknowledgement; step 12 the four consents; step 11 a style", () => {
    expect(firstMessage(parse(9, "next", {}))).toBe("Please tick the Legal Pages Acknowledgement to continue");
    const consents = TICKED_CONSENTS;
    expect(parse(12, "next", consents).success).toBe(true);
    expect(firstMessage(parse(12, "next", { ...consents, understandDataUsage: undefined }))).toBe(
      "Please tick all four required consents to continue",
    );
    expect(firstMessage(parse(11, "next", {}))).toBe("Please choose a design style for your package");
    // Each unticked consent has its own message, so the alert links to its box.
    const missing = parse(12, "next", {
      ...consents,
      understandDataUsage: undefined,
      understandObfuscation: undefined,
    });
    expect(missing.error?.issues.map((i) => [(i as unknown as { path: unknown[] }).path.join("."), i.message])).toEqual(
      [
        ["", "Please tick all four required consents to continue"],
        ["understandObfuscation", CONSENT_NOT_TICKED],
        ["understandDataUsage", CONSENT_NOT_TICKED],
      ],
    );
    expect(fieldLabel("understandDataUsage")).toBe("Data use consent");
    expect(parse(12, "next", { aiChoice: "by_hand" }).success).toBe(true);
  });
});

describe("stored fields", () => {
  it("stores empty optional text as null, with snake_case names", () => {
    expect(storedFields(1, { businessName: "Acme", abnAcn: undefined })).toEqual({
      business_name: "Acme",
      abn_acn: null,
    });
  });
  it("stores the consent record with an ISO timestamp and version 1.0", () => {
    const now = new Date("2026-11-22T01:02:03.000Z");
    const set = storedFields(
      12,
      { allowAIDataProcessing: true, allowShowcase: false, dataRetentionPeriod: "1year" },
      now,
    );
    expect(set.privacy_consent).toMatchObject({
      allowAIDataProcessing: true,
      dataRetentionPeriod: "1year",
      timestamp: "2026-11-22T01:02:03.000Z",
      version: "1.0",
    });
    expect(set).toMatchObject({ ai_processing_consent: true, allow_showcase: false, data_retention_period: "1year" });
  });
});

describe("progress and done steps", () => {
  it("counts filled items out of 35, rounded", () => {
    expect(intakeProgress(null)).toBe(0);
    expect(intakeProgress({ business_name: "A" })).toBe(3);
    expect(
      intakeProgress({ business_name: "A", contact_phone: "1", contact_email: "e", business_description: "d" }),
    ).toBe(11);
  });
  it("marks steps done by the spec's rules", () => {
    expect(completedSteps({ business_name: "A", contact_email: "e" })).toEqual([]);
    expect(
      completedSteps({
        business_name: "A",
        contact_email: "e",
        contact_phone: "1",
        website_purpose: "bookings",
        allow_showcase: false,
      }),
    ).toEqual([1, 2, 12]);
    expect(
      completedSteps({
        services_list: [{ name: "x" }] as StoredSubmission["services_list"],
        style_preference: "bold_creative",
        social_links: { facebook: "https://f" },
        google_business_url: "u",
      }),
    ).toEqual([3, 4, 5, 6]);
    expect(
      completedSteps({
        allow_showcase: null,
        needs_facebook_disclaimer: true,
        staff_bios: [{ name: "Jo" }],
        package_selected: "bold_creative",
      }),
    ).toEqual([9, 10, 11]);
  });
});

describe("privacy classification", () => {
  it("passes public fields, generalises protected ones, and never sends private ones", () => {
    const safe = aiSafeData({
      business_name: "Acme",
      business_description: "Call 0400 111 222 or jo@acme.au for help",
      service_area: "Lismore and the Northern Rivers",
      physical_address: "12 Keen St, Lismore",
      abn_acn: "12 345 678 901",
      contact_phone: "0400 111 222",
      additional_details: "secret",
      // A platform left blank is stored as null (the driver's undefined).
      social_links: { facebook: "https://facebook.com/acme", instagram: null },
      competitor_urls: ["https://a.au", "https://b.au"],
      primary_domain: "acme.com.au",
      logo_key: "logos/x",
    });
    expect(safe).toEqual({
      business_name: "Acme",
      business_description: "Call [phone removed] or [email removed] for help",
      service_area: "Northern Rivers",
      physical_address: LOCAL_AREA,
      abn_acn: REGISTERED_BUSINESS,
      social_links: ["facebook"],
      competitor_urls: "2 competitor website(s) provided",
      primary_domain: "A .com.au domain",
    });
  });

  it("never lets a private field's value through, over 300 generated submissions", () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () => `tok${Math.floor(rand() * 1e9).toString(36)}`;
    const publicish = [
      "business_name",
      "business_description",
      "headline",
      "service_area",
      "physical_address",
      "business_hours",
      "target_keywords",
      "key_points",
      "main_cta",
    ];
    for (let i = 0; i < 300; i++) {
      const doc: Record<string, unknown> = {};
      const secrets: string[] = [];
      for (const field of PRIVATE_FIELDS) {
        const value = rand() < 0.5 ? word() : [{ name: word(), text: word(), url: `https://${word()}.au` }];
        doc[field] = value;
        secrets.push(...JSON.stringify(value).match(/tok[0-9a-z]+/g)!);
      }
      for (const field of publicish) doc[field] = rand() < 0.5 ? `${word()} ${word()}` : [word(), word()];
      const out = JSON.stringify(aiSafeData(doc));
      for (const secret of secrets) expect(out).not.toContain(secret);
      for (const field of PRIVATE_FIELDS) expect(out).not.toContain(`"${field}"`);
    }
  });

  it("names what AI still needs", () => {
    expect(missingForAi({ business_name: "A" })).toBe(
      "Missing required fields for AI processing: Business description, Website purpose",
    );
    expect(missingForAi({ business_name: "A", business_description: "d", website_purpose: "bookings" })).toBeNull();
  });
});

describe("intents", () => {
  it("turns every button's value into a typed intent, and anything else into null", () => {
    expect(parseIntakeIntent("next")).toEqual({ type: "next" });
    expect(parseIntakeIntent("save-exit")).toEqual({ type: "save-exit" });
    expect(parseIntakeIntent(INTENT_VALUES.jump(14))).toEqual({ type: "jump", step: 14 });
    expect(parseIntakeIntent(INTENT_VALUES.remove("servicesList", "k2d9a0b1c2e3"))).toEqual({
      type: "remove",
      field: "servicesList",
      id: "k2d9a0b1c2e3",
    });
    for (const bad of [
      "",
      "jump:0",
      "jump:15",
      "jump:x",
      "remove:servicesList:-1",
      "remove::1",
      "remove:a:ABC",
      `remove:a:${"a".repeat(41)}`,
      "delete",
      null,
      undefined,
      3,
    ]) {
      expect(parseIntakeIntent(bad)).toBeNull();
    }
  });
  it("checks required fields only for next and submit", () => {
    expect(intentMode({ type: "next" })).toBe("next");
    expect(intentMode({ type: "submit" })).toBe("next");
    expect(intentMode({ type: "back" })).toBe("draft");
    expect(intentMode(null)).toBe("draft");
  });
});

describe("list shapes", () => {
  it("refuses a list posted as something else, with the one message", () => {
    expect(firstMessage(parse(3, "draft", { servicesList: "x" }))).toBe(LIST_SHAPE_MESSAGE);
    expect(firstMessage(parse(3, "draft", { servicesList: [{ name: "A", extra: "x" }] }))).toBe(LIST_SHAPE_MESSAGE);
    expect(firstMessage(parse(4, "draft", { brandColors: [{ name: "x" }] }))).toBe(LIST_SHAPE_MESSAGE);
    // A row posted without its number is not a list of one row.
    expect(firstMessage(parse(3, "draft", { servicesList: { name: "x" } }))).toBe(LIST_SHAPE_MESSAGE);
    expect(firstMessage(parse(10, "draft", { staffBios: { name: "x" } }))).toBe(LIST_SHAPE_MESSAGE);
  });
  it("keeps a refused post's values only in the shapes the form draws", () => {
    expect(
      keepListShapes({
        businessName: "A",
        servicesList: "x",
        brandColors: ["red", undefined],
        socialLinks: ["x"],
        testimonials: [{ author: "A" }, "x"],
      }),
    ).toEqual({
      businessName: "A",
      brandColors: ["red", undefined],
    });
    expect(keepListShapes({ businessName: ["x"], socialLinks: { facebook: "f" } })).toEqual({
      socialLinks: { facebook: "f" },
    });
  });
  it("reads a post without the item a Remove names by its id, the rows after it moved up; an id not there changes nothing", () => {
    const form = new FormData();
    for (const [k, v] of [
      ["keyPoints[0]", "a"],
      ["listIds.keyPoints[0]", "aaaaaaaaaaaa"],
      ["keyPoints[1]", "b"],
      ["listIds.keyPoints[1]", "bbbbbbbbbbbb"],
      ["keyPoints[2]", "c"],
      ["listIds.keyPoints[2]", "cccccccccccc"],
      ["keyPoints[3]", ""],
      ["headline", "Hi"],
    ])
      form.append(k, v);
    const without = withoutPostedItem(form, "keyPoints", "bbbbbbbbbbbb");
    expect([...without]).toEqual([
      ["keyPoints[0]", "a"],
      ["listIds.keyPoints[0]", "aaaaaaaaaaaa"],
      ["keyPoints[1]", "c"],
      ["listIds.keyPoints[1]", "cccccccccccc"],
      ["keyPoints[2]", ""],
      ["headline", "Hi"],
    ]);
    expect(withoutPostedItem(without, "keyPoints", "bbbbbbbbbbbb")).toBe(without);
  });
  it("keeps each posted item's id when the server gave it, gives new items new ids, and leaves out items removed meanwhile", () => {
    const form = new FormData();
    for (const [k, v] of [
      ["servicesList[0].name", "Wiring"],
      ["listIds.servicesList[0]", "aaaaaaaaaaaa"],
      ["servicesList[1].name", "  "], // cleared: dropped by the schema, its id with it
      ["listIds.servicesList[1]", "bbbbbbbbbbbb"],
      ["servicesList[2].prominent", "on"],
      ["listIds.servicesList[2]", "cccccccccccc"],
      ["servicesList[3].name", "Solar"],
      ["listIds.servicesList[3]", "dddddddddddd"], // removed by a save this page had not heard of
      ["servicesList[4].name", "Lights"], // the new row
      ["listIds.servicesList[4]", "zzzzzzzzzzzz"], // an id the server never gave this list: a new one
    ])
      form.append(k, v);
    let n = 0;
    const known = ["aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"];
    const { ids, gone } = postedIds(form, "servicesList", known, ["dddddddddddd"], () => `new${++n}`.padEnd(12, "0"));
    expect(ids).toEqual(["aaaaaaaaaaaa", "cccccccccccc", "new100000000"]);
    expect([...gone]).toEqual([2]); // the third kept row (Solar)
  });
  it("gives a list stored without ids the same ids on every read, and keeps stored ids that match the list", () => {
    expect(storedIds("keyPoints", ["a", "b"], null)).toEqual(storedIds("keyPoints", ["a", "b"], undefined));
    expect(new Set(storedIds("keyPoints", ["a", "a"], null)).size).toBe(2);
    expect(storedIds("keyPoints", ["a", "b"], ["aaaaaaaaaaaa", "bbbbbbbbbbbb"])).toEqual([
      "aaaaaaaaaaaa",
      "bbbbbbbbbbbb",
    ]);
    for (const id of storedIds("keyPoints", ["a", "b"], ["aaaaaaaaaaaa"])) expect(id).toMatch(ITEM_ID);
  });
  it("reads the furthest step reached within 1-14", () => {
    expect(furthestStep(null)).toBe(1);
    expect(furthestStep({ furthest_step: 15 })).toBe(14);
    expect(furthestStep({ furthest_step: "junk" } as unknown as StoredSubmission)).toBe(1);
    expect(canOpenStep(3, { furthest_step: 2 })).toBe(false);
  });
});

describe("token states", () => {
  const now = new Date("2026-01-10T00:00:00Z");
  it("used wins over expired; a link is expired from the moment of its expiry", () => {
    expect(tokenState({ used: false, expires_at: new Date(now.getTime() + 1) }, now)).toBe("valid");
    expect(tokenState({ used: false, expires_at: now }, now)).toBe("expired");
    expect(tokenState({ used: true, expires_at: new Date(0) }, now)).toBe("used");
    // Its words never promise more than it has; its state counts rounded-up days.
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(linkTimeLeft(at(2 * DAY_MS + 3_600_000), now)).toBe("2 days");
    expect(adminTokenState(at(2 * DAY_MS + 3_600_000), now)).toBe("Expiring Soon");
    expect(linkTimeLeft(at(DAY_MS), now)).toBe("1 day");
    expect(linkTimeLeft(at(DAY_MS - 1), now)).toBe("23 hours");
    expect(linkTimeLeft(at(3_600_000), now)).toBe("1 hour");
    expect(linkTimeLeft(at(59 * 60_000), now)).toBe("less than an hour");
    expect(linkTimeLeft(now, now)).toBeNull();
  });
  it("lasts 7 days for the intake (as stated after payment), renews by 30, three times", () => {
    expect(TOKEN_VALID_DAYS.intake).toBe(7);
    expect(addDays(now, RENEWAL_DAYS).toISOString()).toBe("2026-02-09T00:00:00.000Z");
    expect(MAX_SELF_RENEWALS).toBe(3);
  });
});

describe("step 12: the AI opt-out", () => {
  const consents = TICKED_CONSENTS;
  it("AI-assisted drafting (the default) still needs the four ticks", () => {
    expect(parse(12, "next", {}).success).toBe(false);
    expect(parse(12, "next", { aiChoice: "ai", ...consents }).data).toMatchObject({
      aiChoice: "ai",
      allowAIDataProcessing: true,
    });
  });
  it("a site built by hand needs no ticks, and withdraws any left ticked", () => {
    const r = parse(12, "next", { aiChoice: "by_hand", allowAIDataProcessing: "on" });
    expect(r.data).toMatchObject({ aiChoice: "by_hand", allowAIDataProcessing: false, understandDataUsage: false });
    const stored = storedFields(12, r.data!);
    expect(stored).toMatchObject({
      ai_processing_consent: false,
      privacy_consent: { aiOptOut: true, allowAIDataProcessing: false },
    });
    expect(optedOutOfAi(stored)).toBe(true);
    expect(formValues(stored).aiChoice).toBe("by_hand");
    expect(optedOutOfAi(storedFields(12, parse(12, "next", consents).data!))).toBe(false);
  });
});

describe("the top alert names its field in the form's words", () => {
  it.each([
    ["businessName", "Trading name"],
    ["testimonials[1].text", "Testimonial 2, What they said"],
    ["servicesList[0].price", "Service 1, Price"],
    ["keyPoints[2]", "Key point 3"],
    ["socialLinks.facebook", "Facebook"],
    ["photoMetadata[0].altText", "Photo 1, Describe the photo"],
    ["mainCta", "What should visitors do?"],
    ["physicalAddress", "Address"],
  ])("%s is %s", (path, label) => expect(fieldLabel(path)).toBe(label));
  it("says the message after the label, or alone when it is about the whole step", () => {
    // A message written for its field stands alone; one that could be about any field is named.
    expect(namedError("businessName", "Please enter your trading name")).toBe("Please enter your trading name");
    expect(namedError("packageSelected", "Please choose a design style for your package")).toBe(
      "Please choose a design style for your package",
    );
    expect(namedError("socialLinks.facebook", "Invalid URL format")).toBe("Facebook: Invalid URL format");
    expect(namedError("businessName", "Must be 200 characters or fewer")).toBe(
      "Trading name: Must be 200 characters or fewer",
    );
    expect(namedError("testimonials[1].author", "Please add the customer's name")).toBe(
      "Testimonial 2, Customer's name: Please add the customer's name",
    );
    // Every step's required field, refused on Next, says what to do without its label before it.
    for (const [step, field] of [
      [1, "businessName"],
      [1, "contactEmail"],
      [1, "contactPhone"],
      [1, "businessType"],
      [1, "businessDescription"],
      [2, "websitePurpose"],
      [2, "mainCta"],
      [5, "primaryDomain"],
      [11, "packageSelected"],
    ] as const) {
      const r = parse(step, "next", {});
      const issue = r.error?.issues.find((i) => (i as { path?: unknown[] }).path?.[0] === field);
      expect(issue?.message, field).toMatch(/^Please /);
      expect(namedError(field, issue!.message)).toBe(issue!.message);
    }
    expect(namedError("", "Please tick all four required consents to continue")).toBe(
      "Please tick all four required consents to continue",
    );
  });
});

describe("intake details shown back to the customer", () => {
  it("reads a stored choice as the label the form showed ('A mix of both', not 'mixed')", () => {
    expect(choiceLabel("pricing_approach", "mixed")).toBe("A mix of both");
    for (const o of PRICING_APPROACHES) expect(choiceLabel("pricing_approach", o.value)).toBe(o.label);
    expect(choiceLabel("services_grouping", "grouped")).toBe("All on one Services page");
    expect(choiceLabel("business_type", "health_wellness")).toBe("Health & wellness");
    expect(choiceLabel("headline", "mixed")).toBeUndefined(); // not a choice: shown as typed
  });

  it("marks each stored photo without alt text on its own field", () => {
    const photo = { id: "p", key: "k", thumbKey: null, url: "/u", fileName: "a.png", placement: "gallery" };
    const more = { crop: "landscape", priority: "medium" };
    expect(
      photosWithoutAltErrors({
        photo_metadata: [
          { ...photo, ...more, altText: "Our van" },
          { ...photo, ...more, altText: "" },
        ],
      }),
    ).toEqual({ "photoMetadata[1].altText": ["Alt text is required"] });
    expect(photosWithoutAltErrors(null)).toEqual({});
  });
});

describe("a submission's answers (answers.ts)", () => {
  const doc: StoredSubmission = {
    business_name: "Acme",
    pages_needed: ["Home", "Contact"],
    social_links: { facebook: "https://facebook.com/acme", instagram: null },
    privacy_consent: storedConsent(),
  };

  it("lists each step's stored fields from its schema, the logo's upload with step 4 and the consent record for step 12", () => {
    expect(stepAnswerFields(1)).toContain("business_name");
    expect(stepAnswerFields(4).slice(0, 2)).toEqual(["logo_key", "logo_url"]);
    expect(stepAnswerFields(4)).toContain("photo_metadata");
    expect(stepAnswerFields(12)).toEqual(["privacy_consent"]);
    expect(stepAnswerFields(13)).toEqual([]);
  });

  it("names the steps that changed, ignoring key order and the consent's save time", () => {
    const before = submittedAnswers(doc);
    const same = submittedAnswers({
      ...doc,
      social_links: { instagram: null, facebook: "https://facebook.com/acme" },
      privacy_consent: { ...doc.privacy_consent!, timestamp: "2026-11-02T00:00:00.000Z" },
    });
    expect(changedFields(before, same)).toEqual([]);
    const after = submittedAnswers({ ...doc, business_name: "Acme Plumbing", pages_needed: ["Home"] });
    expect(changedFields(before, after)).toEqual(["business_name", "pages_needed"]);
    expect(changedStepNames(before, after)).toEqual(["Business Basics", "Pages"]);
    expect(changedStepNames(null, after)).toEqual([]);
  });
});

describe("the privacy audit's words for step 12's answer", () => {
  it("a by-hand build is AI declined, an AI-assisted one a consent; each action has its words", () => {
    expect(consentAuditAction({ privacy_consent: { aiOptOut: true } } as StoredSubmission)).toBe("ai_declined");
    expect(consentAuditAction({ privacy_consent: { aiOptOut: false } } as StoredSubmission)).toBe("consent_given");
    expect(consentAuditAction(null)).toBe("consent_given");
    expect(AUDIT_ACTION_LABELS.ai_declined).toBe("AI declined (by-hand build)");
    for (const action of AUDIT_ACTIONS) expect(AUDIT_ACTION_LABELS[action]).not.toContain("_");
  });
});
