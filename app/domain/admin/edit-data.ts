import * as z from "../zod";

/**
 * The admin's Edit Data tab: every intake field a person typed or chose, by its
 * stored name. Upload keys and URLs, consent and the submission's own state are
 * not editable here: those come from the server's records or from the customer.
 */
export type EditKind = "text" | "textarea" | "flag" | "list" | "object";
export type EditField = { name: string; label: string; kind: EditKind; items?: "string" | "object" };

const text = (name: string, label: string): EditField => ({ name, label, kind: "text" });
const area = (name: string, label: string): EditField => ({ name, label, kind: "textarea" });
const flag = (name: string, label: string): EditField => ({ name, label, kind: "flag" });
const strings = (name: string, label: string): EditField => ({ name, label, kind: "list", items: "string" });
const objects = (name: string, label: string): EditField => ({ name, label, kind: "list", items: "object" });

export const EDIT_FIELDS: EditField[] = [
  text("business_name", "Business name"),
  text("business_legal_name", "Legal name"),
  text("abn_acn", "ABN/ACN"),
  text("contact_email", "Contact email"),
  text("contact_phone", "Contact phone"),
  text("physical_address", "Physical address"),
  text("service_area", "Service area"),
  text("business_hours", "Business hours"),
  flag("has_domain", "Has a domain"),
  text("domain_url", "Domain URL"),
  text("business_type", "Business type"),
  text("business_type_other", "Business type (other)"),
  area("business_description", "Business description"),
  text("website_purpose", "Website purpose"),
  text("website_purpose_other", "Website purpose (other)"),
  text("main_cta", "Main call to action"),
  text("specific_offer", "Specific offer"),
  flag("needs_contact_form", "Needs a contact form"),
  objects("services_list", "Services"),
  text("pricing_approach", "Pricing approach"),
  text("services_grouping", "Services grouping"),
  strings("brand_colors", "Brand colours"),
  text("style_preference", "Style preference"),
  text("style_preference_other", "Style preference (other)"),
  text("primary_domain", "Primary domain"),
  strings("target_keywords", "Target keywords"),
  strings("competitor_urls", "Competitor URLs"),
  { name: "social_links", label: "Social links", kind: "object" },
  text("google_business_url", "Google Business URL"),
  objects("testimonials", "Testimonials"),
  objects("review_links", "Review links"),
  flag("wants_review_automation", "Wants review automation"),
  flag("wants_review_system", "Wants a review system"),
  strings("pages_needed", "Pages needed"),
  strings("must_have_sections", "Must-have sections"),
  text("headline", "Headline"),
  strings("key_points", "Key points"),
  area("existing_content", "Existing content"),
  flag("needs_privacy_policy", "Needs a privacy policy"),
  flag("needs_terms_conditions", "Needs terms and conditions"),
  flag("needs_facebook_disclaimer", "Needs a Facebook disclaimer"),
  flag("legal_pages_disclaimer", "Accepted the legal pages disclaimer"),
  text("booking_system", "Booking system"),
  text("google_analytics_id", "Google Analytics ID"),
  objects("staff_bios", "Staff bios"),
  strings("video_urls", "Video URLs"),
  text("website_style_preference", "Website style"),
  text("website_style_preference_other", "Website style (other)"),
  text("preferred_launch_date", "Preferred launch date"),
  text("package_selected", "Package selected"),
  text("hosting_preference", "Hosting preference"),
  flag("allow_showcase", "Allows showcase"),
  area("additional_details", "Additional details"),
];

export const TEXT_MAX = 2000;
export const TEXTAREA_MAX = 10_000;
export const JSON_MAX = 20_000;
const LIST_MAX_ITEMS = 100;

export const EDIT_MESSAGES = {
  saved: { title: "Saved Successfully" },
  notJson: (label: string) => `${label}: not valid JSON, so nothing was saved. Fix it and save again.`,
  notList: (label: string) => `${label} must be a JSON list, such as ["one", "two"]`,
  notObject: (label: string) => `${label} must be a JSON object, such as {"facebook": "https://..."}`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
  tooMany: (label: string) => `${label} can hold at most ${LIST_MAX_ITEMS} items`,
  noSubmission: "Customer hasn't completed the intake form yet",
} as const;

const optionalText = (f: EditField, max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null),
    z.nullable(z.string().check(z.maxLength(max, EDIT_MESSAGES.tooLong(f.label, max)))),
  );

function jsonField(f: EditField) {
  const json = z.string().check(z.maxLength(JSON_MAX, EDIT_MESSAGES.tooLong(f.label, JSON_MAX)));
  return z.pipe(
    json,
    z.transform((raw: string, ctx) => {
      const trimmed = raw.trim();
      if (trimmed === "") return f.kind === "object" ? {} : [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        ctx.issues.push({ code: "custom", message: EDIT_MESSAGES.notJson(f.label), input: raw });
        return z.NEVER;
      }
      if (f.kind === "object") {
        if (
          !parsed ||
          typeof parsed !== "object" ||
          Array.isArray(parsed) ||
          !Object.values(parsed).every((v) => typeof v === "string")
        ) {
          ctx.issues.push({ code: "custom", message: EDIT_MESSAGES.notObject(f.label), input: raw });
          return z.NEVER;
        }
        return parsed as Record<string, string>;
      }
      const itemOk = (v: unknown) =>
        f.items === "string" ? typeof v === "string" : Boolean(v) && typeof v === "object" && !Array.isArray(v);
      if (!Array.isArray(parsed) || !parsed.every(itemOk)) {
        ctx.issues.push({ code: "custom", message: EDIT_MESSAGES.notList(f.label), input: raw });
        return z.NEVER;
      }
      if (parsed.length > LIST_MAX_ITEMS) {
        ctx.issues.push({ code: "custom", message: EDIT_MESSAGES.tooMany(f.label), input: raw });
        return z.NEVER;
      }
      return parsed;
    }),
  );
}

function fieldSchema(f: EditField) {
  switch (f.kind) {
    case "text":
      return optionalText(f, TEXT_MAX);
    case "textarea":
      return optionalText(f, TEXTAREA_MAX);
    case "flag":
      return z.preprocess((v) => (v === "yes" ? true : v === "no" ? false : null), z.nullable(z.boolean()));
    case "list":
    case "object":
      return z.preprocess((v) => (v === undefined ? "" : v), jsonField(f));
  }
}

/** One schema for the whole tab: a field that fails (bad JSON, too long) fails the save, and nothing is stored. */
export const EditDataSchema = z.object(Object.fromEntries(EDIT_FIELDS.map((f) => [f.name, fieldSchema(f)])));

/** A stored submission's values as the form shows them: text as is, flags yes/no/blank, lists as pretty JSON. */
export function editFormValues(doc: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of EDIT_FIELDS) {
    const v = doc[f.name];
    if (f.kind === "flag") out[f.name] = v === true ? "yes" : v === false ? "no" : "";
    else if (f.kind === "list" || f.kind === "object")
      out[f.name] = JSON.stringify(v ?? (f.kind === "object" ? {} : []), null, 2);
    else out[f.name] = v == null ? "" : String(v);
  }
  return out;
}
