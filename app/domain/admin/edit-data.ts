import type { StoredField, StoredSubmission } from "../intake/data";

/**
 * The admin's Edit Data tab: every intake field a person typed or chose, by its
 * stored name. Upload keys and URLs, consent and the submission's own state are
 * not editable here: those come from the server's records or from the customer.
 */
export type EditKind = "text" | "textarea" | "flag" | "list" | "object";
/**
 * `name` is a stored field (StoredSubmission): renaming a field fails `tsc` here. `wide`: a one-line field
 * whose values are long (a Google Maps link), given the form's whole width.
 */
export type EditField = { name: StoredField; label: string; kind: EditKind; items?: "string" | "object"; wide?: true };

const text = (name: StoredField, label: string): EditField => ({ name, label, kind: "text" });
const area = (name: StoredField, label: string): EditField => ({ name, label, kind: "textarea" });
const flag = (name: StoredField, label: string): EditField => ({ name, label, kind: "flag" });
const strings = (name: StoredField, label: string): EditField => ({ name, label, kind: "list", items: "string" });
const objects = (name: StoredField, label: string): EditField => ({ name, label, kind: "list", items: "object" });

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
  { ...text("google_business_url", "Google Business URL"), wide: true },
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
  /** The alert above the form when some JSON edits were ignored and the rest was saved. */
  ignored: (labels: string[]) =>
    `Saved, except ${labels.join(", ")}: ${labels.length === 1 ? "that change was" : "those changes were"} ignored, and what was stored before is kept. Fix the marked ${labels.length === 1 ? "field" : "fields"} and save again.`,
  notJson: (label: string) => `${label}: not valid JSON, so this change was ignored`,
  notList: (label: string) => `${label} must be a JSON list, such as ["one", "two"], so this change was ignored`,
  notObject: (label: string) =>
    `${label} must be a JSON object of text, such as {"facebook": "https://..."}, so this change was ignored`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
  tooMany: (label: string) => `${label} can hold at most ${LIST_MAX_ITEMS} items, so this change was ignored`,
  noSubmission: "Customer hasn't completed the intake form yet",
} as const;

/** An object field's entries as stored and shown: text values only, blank and null ones left out. */
function textEntries(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].trim() !== ""),
  );
}

/** One JSON field's text as the value to store, or why the edit is ignored (spec 2: only text that parses is accepted). */
export function readJsonEdit(f: EditField, raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const trimmed = raw.trim();
  if (trimmed === "") return { ok: true, value: f.kind === "object" ? {} : [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { ok: false, message: EDIT_MESSAGES.notJson(f.label) };
  }
  if (f.kind === "object") {
    const isTextMap =
      Boolean(parsed) &&
      typeof parsed === "object" &&
      !Array.isArray(parsed) &&
      Object.values(parsed as object).every((v) => v === null || typeof v === "string");
    // null is how the intake stores a platform left blank, so it is accepted (and left out) as blank text is.
    return isTextMap
      ? { ok: true, value: textEntries(parsed) }
      : { ok: false, message: EDIT_MESSAGES.notObject(f.label) };
  }
  const itemOk = (v: unknown) =>
    f.items === "string" ? typeof v === "string" : Boolean(v) && typeof v === "object" && !Array.isArray(v);
  if (!Array.isArray(parsed) || !parsed.every(itemOk)) return { ok: false, message: EDIT_MESSAGES.notList(f.label) };
  if (parsed.length > LIST_MAX_ITEMS) return { ok: false, message: EDIT_MESSAGES.tooMany(f.label) };
  return { ok: true, value: parsed };
}

export type IgnoredEdit = { name: string; label: string; message: string };

/**
 * The parsed tab as the $set to store, and the JSON edits ignored because their text is not
 * valid (those fields are left out of the $set, so what was stored before stays).
 */
export function readEdit(values: Record<string, unknown>): {
  set: Partial<Record<StoredField, unknown>>;
  ignored: IgnoredEdit[];
} {
  const set: Partial<Record<StoredField, unknown>> = {};
  const ignored: IgnoredEdit[] = [];
  for (const f of EDIT_FIELDS) {
    const value = values[f.name];
    if (f.kind !== "list" && f.kind !== "object") {
      set[f.name] = value ?? null;
      continue;
    }
    const read = readJsonEdit(f, typeof value === "string" ? value : "");
    if (read.ok) set[f.name] = read.value;
    else ignored.push({ name: f.name, label: f.label, message: read.message });
  }
  return { set, ignored };
}

/** A stored submission's values as the form shows them: text as is, flags yes/no/blank, lists as pretty JSON. */
export function editFormValues(doc: StoredSubmission): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of EDIT_FIELDS) {
    const v = doc[f.name];
    if (f.kind === "flag") out[f.name] = v === true ? "yes" : v === false ? "no" : "";
    else if (f.kind === "object") out[f.name] = JSON.stringify(textEntries(v), null, 2);
    else if (f.kind === "list") out[f.name] = JSON.stringify(Array.isArray(v) ? v : [], null, 2);
    else out[f.name] = v == null ? "" : String(v);
  }
  return out;
}
