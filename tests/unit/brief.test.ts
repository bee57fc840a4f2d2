import { describe, expect, it } from "vitest";
import { BRIEF_WORDS, LABELS } from "~/domain/intake/labels";
import { BRIEF_MESSAGES, briefView, type BriefAnswer, type BriefView } from "~/domain/admin/brief";
import { submittedAnswers } from "~/domain/intake/answers";
import type { StoredSubmission } from "~/domain/intake/data";
import { STEPS } from "~/domain/intake/steps";
import { storedConsent } from "../support/consent";

const consent = storedConsent({ dataRetentionPeriod: "1year" });

const doc: StoredSubmission = {
  status: "submitted",
  business_name: "Lismore Bakery",
  contact_email: "hello@lismore.example",
  business_type: "hospitality",
  business_description: "Sourdough since 1998.\nOpen early.",
  has_domain: true,
  pricing_approach: "mixed",
  services_list: [
    { name: "Wedding cakes", description: "Three tiers", prominent: true, showPricing: false, price: "" },
  ],
  brand_colors: ["#aa3300", "cream"],
  competitor_urls: ["https://rival.example/cakes", "javascript:alert(1)"],
  social_links: { facebook: "https://facebook.com/lismorebakery", instagram: null },
  logo_key: "orders/x/logo.png",
  photo_metadata: [
    {
      id: "p1",
      key: "orders/x/p1.jpg",
      thumbKey: null,
      url: "",
      fileName: "shop.jpg",
      altText: "Shop front at dawn",
      placement: "hero",
      crop: "landscape",
      priority: "high",
    },
  ],
  pages_needed: ["Home", "Contact"],
  privacy_consent: consent,
};

function ready(view: BriefView) {
  if (view.state !== "ready") throw new Error(`expected a ready brief, got ${view.state}`);
  return view;
}

function answer(view: BriefView, label: string): BriefAnswer {
  const found = ready(view)
    .steps.flatMap((s) => s.answers)
    .find((a) => a.label === label);
  if (!found) throw new Error(`no answer labelled ${label}`);
  return found;
}

describe("the admin's Brief", () => {
  const view = briefView(doc, { dataDeleted: false }, BRIEF_WORDS);

  it("groups every answer under the form's 14 steps, in order", () => {
    const { steps } = ready(view);
    expect(steps.map((s) => s.name)).toEqual(STEPS.map((s) => s.name));
    expect(steps[0].answers.map((a) => a.label).slice(0, 3)).toEqual([
      LABELS.businessName,
      LABELS.businessLegalName,
      LABELS.abnAcn,
    ]);
    expect(steps[12].answers).toEqual([]);
  });

  it("uses the form's labels and shows a choice by the label the form showed", () => {
    expect(answer(view, LABELS.businessName).value).toEqual({ kind: "text", text: "Lismore Bakery" });
    expect(answer(view, LABELS.businessType).value).toEqual({ kind: "text", text: "Hospitality" });
    expect(answer(view, LABELS.pricingApproach).value).toEqual({ kind: "text", text: "A mix of both" });
    expect(answer(view, LABELS.hasDomain).value).toEqual({ kind: "text", text: "Yes" });
    expect(answer(view, LABELS.dataRetentionPeriod).value).toEqual({ kind: "text", text: "1 year" });
    expect(answer(view, LABELS.aiChoice).value).toMatchObject({ kind: "text", text: expect.stringMatching(/^Use AI/) });
    expect(answer(view, "Logo file").value).toEqual({ kind: "text", text: BRIEF_MESSAGES.logoUploaded });
  });

  it("marks an empty answer, and shows lists as lists and only http(s) addresses as links", () => {
    expect(answer(view, LABELS.businessLegalName).value).toEqual({ kind: "empty" });
    expect(answer(view, LABELS.targetKeywords).value).toEqual({ kind: "empty" });
    expect(answer(view, LABELS.brandColors).value).toEqual({
      kind: "list",
      items: [
        { kind: "text", text: "#aa3300" },
        { kind: "text", text: "cream" },
      ],
    });
    expect(answer(view, LABELS.competitorUrls).value).toEqual({
      kind: "list",
      items: [
        { kind: "link", href: "https://rival.example/cakes" },
        { kind: "text", text: "javascript:alert(1)" },
      ],
    });
    expect(answer(view, LABELS.socialLinks).value).toEqual({
      kind: "group",
      parts: [
        { label: "Facebook", value: { kind: "link", href: "https://facebook.com/lismorebakery" } },
        { label: "Instagram", value: { kind: "empty" } },
      ],
    });
  });

  it("shows a list editor's rows with their boxes, and names a photo by its alt text", () => {
    const services = answer(view, LABELS.servicesList).value;
    expect(services).toMatchObject({ kind: "rows", rows: [{ title: "Service 1" }] });
    const photos = answer(view, LABELS.photoMetadata).value;
    if (photos.kind !== "rows") throw new Error("photos are rows");
    expect(photos.rows[0].title).toBe("Photo 1: Shop front at dawn");
    expect(photos.rows[0].parts).toContainEqual({
      label: "Where should it go?",
      value: { kind: "text", text: "Top of the home page (hero)" },
    });
  });

  it("marks nothing as changed after a first submission", () => {
    const first = { ...doc, submitted_answers: submittedAnswers(doc), previous_answers: null };
    const v = ready(briefView(first, { dataDeleted: false }, BRIEF_WORDS));
    expect(v.resubmitted).toBe(false);
    expect(v.steps.flatMap((s) => s.answers).some((a) => a.changed)).toBe(false);
  });

  it("after a re-submission marks the answers and steps that changed since the previous one", () => {
    const before = submittedAnswers(doc);
    const edited: StoredSubmission = {
      ...doc,
      business_name: "Lismore Bakehouse",
      pages_needed: ["Home", "About", "Contact"],
    };
    const again = { ...edited, submitted_answers: submittedAnswers(edited), previous_answers: before };
    const v = ready(briefView(again, { dataDeleted: false }, BRIEF_WORDS));
    expect(v.resubmitted).toBe(true);
    expect(v.changedCount).toBe(2);
    expect(v.steps.filter((s) => s.changed).map((s) => s.name)).toEqual(["Business Basics", "Pages"]);
    expect(answer(v, LABELS.businessName).changed).toBe(true);
    expect(answer(v, LABELS.contactEmail).changed).toBe(false);
    expect(BRIEF_MESSAGES.resubmitted(v.changedCount)).toContain("2 answers changed");
  });

  it("shows only the deletion for a deleted order, and nothing before a submission", () => {
    expect(briefView(doc, { dataDeleted: true }, BRIEF_WORDS)).toEqual({ state: "deleted" });
    expect(briefView(null, { dataDeleted: false }, BRIEF_WORDS)).toEqual({ state: "no-submission" });
    expect(briefView({ ...doc, status: "draft" }, { dataDeleted: false }, BRIEF_WORDS)).toEqual({
      state: "no-submission",
    });
  });
});
