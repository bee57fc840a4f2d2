import type { StoredField, StoredSubmission } from "./intake/data";

/**
 * What may go to AI (spec 1 section 3, "Privacy classification"). Public fields
 * go as they are; protected ones are generalised or obscured; private ones never
 * go; anything unlisted is dropped. The intake's Privacy Preview and the admin's
 * AI prompt both use aiSafeData, so what the customer saw is what AI gets.
 */
export const PUBLIC_FIELDS = [
  "business_name",
  "business_description",
  "website_purpose",
  "main_cta",
  "specific_offer",
  "business_type",
  "style_preference",
  "brand_colors",
  "headline",
  "key_points",
  "services_list",
  "pages_needed",
  "must_have_sections",
  "pricing_approach",
  "existing_content",
] as const satisfies readonly StoredField[];

export const PROTECTED_FIELDS = [
  "physical_address",
  "service_area",
  "business_hours",
  "abn_acn",
  "business_legal_name",
  "primary_domain",
  "target_keywords",
  "competitor_urls",
  "social_links",
] as const satisfies readonly StoredField[];

/** The private fields the intake stores: never sent to AI. */
const STORED_PRIVATE_FIELDS = [
  "contact_phone",
  "contact_email",
  "staff_bios",
  "testimonials",
  "review_links",
  "google_analytics_id",
  "additional_details",
] as const satisfies readonly StoredField[];

/**
 * Never sent to AI: spec 1's private list. The form asks for neither a project contact nor a
 * Facebook pixel, so those four are never stored; they stay listed as the spec names them.
 */
export const PRIVATE_FIELDS = [
  "project_contact_name",
  "project_contact_email",
  "project_contact_phone",
  "facebook_pixel_id",
  ...STORED_PRIVATE_FIELDS,
] as const;

export const KNOWN_PLACES = [
  "Northern Rivers",
  "Gold Coast",
  "Brisbane",
  "Sydney",
  "Melbourne",
  "Perth",
  "Adelaide",
  "Darwin",
  "Hobart",
  "Canberra",
];
export const REGISTERED_BUSINESS = "Registered Australian business";
export const LOCAL_AREA = "Local area";

/** A known place named in the text is kept; anything else becomes "Local area". */
export function generaliseLocation(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  const place = KNOWN_PLACES.find((p) => value.toLowerCase().includes(p.toLowerCase()));
  return place ?? LOCAL_AREA;
}

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/g;
const PHONE = /(?:\+?61|0)[\d\s().-]{7,}\d/g;

/** Public free text may still carry an e-mail or phone number someone typed; those are removed. */
export function scrub(value: unknown): unknown {
  if (typeof value === "string") return value.replace(EMAIL, "[email removed]").replace(PHONE, "[phone removed]");
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
  return value;
}

const present = (v: unknown) => v !== null && v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0);

type ProtectedField = (typeof PROTECTED_FIELDS)[number];

function protectedValue<F extends ProtectedField>(field: F, value: NonNullable<StoredSubmission[F]>): unknown {
  switch (field) {
    case "physical_address":
    case "service_area":
      return generaliseLocation(value);
    case "abn_acn":
      return REGISTERED_BUSINESS;
    case "business_legal_name":
      return "Registered business name on file";
    case "business_hours":
      return "Business hours provided";
    case "primary_domain": {
      const host = String(value)
        .replace(/^https?:\/\//, "")
        .split("/")[0];
      const tld = /(\.[a-z]{2,}(?:\.[a-z]{2})?)$/i.exec(host)?.[1];
      return tld ? `A ${tld} domain` : "A domain name";
    }
    case "target_keywords":
      // Search terms are what the site must be written around; only contact details are taken out.
      return scrub(value);
    case "competitor_urls":
      return `${(value as NonNullable<StoredSubmission["competitor_urls"]>).length} competitor website(s) provided`;
    case "social_links":
      return Object.entries(value as NonNullable<StoredSubmission["social_links"]>)
        .filter(([, url]) => present(url))
        .map(([platform]) => platform);
  }
}

/** What protectedValue does to each protected field, in words a customer reads on the Privacy Preview. */
export const GENERALISED_WHY: Record<ProtectedField, string> = {
  physical_address: `reduced to a known region (such as Northern Rivers) or "${LOCAL_AREA}", so AI never learns where you are.`,
  service_area: `reduced to a known region (such as Northern Rivers) or "${LOCAL_AREA}".`,
  business_hours: "AI is told only that you gave your hours; we add them to the site ourselves.",
  abn_acn: `replaced by "${REGISTERED_BUSINESS}": the number itself is never sent.`,
  business_legal_name: "AI is told only that a registered name is on file.",
  primary_domain: "reduced to its ending (for example a .com.au domain).",
  target_keywords:
    "kept, because the site is written around them; any e-mail address or phone number in them is taken out.",
  competitor_urls: "AI is told how many you gave, not which businesses they are.",
  social_links: "only the names of the platforms are sent, never your profile links.",
};

export type AiSafeData = Record<string, unknown>;

/** What AI may see of a stored submission (the Privacy Preview shows exactly this). */
export function aiSafeData(submission: StoredSubmission): AiSafeData {
  const out: AiSafeData = {};
  for (const field of PUBLIC_FIELDS) if (present(submission[field])) out[field] = scrub(submission[field]);
  for (const field of PROTECTED_FIELDS) {
    const value = submission[field];
    if (present(value)) out[field] = protectedValue(field, value!);
  }
  if (present(submission.services_list)) {
    out.services_list = scrub(
      submission.services_list!.map(({ name, description, price, showPricing }) => ({
        name,
        description,
        price,
        showPricing,
      })),
    );
  }
  return out;
}

/** A short account of what was done, stored with the submission (privacy_summary). */
export function privacySummary(submission: StoredSubmission) {
  return {
    public: PUBLIC_FIELDS.filter((f) => present(submission[f])),
    generalised: PROTECTED_FIELDS.filter((f) => present(submission[f])),
    withheld: STORED_PRIVATE_FIELDS.filter((f) => present(submission[f])),
  };
}

export const AI_REQUIRED = [
  ["business_name", "Business name"],
  ["business_description", "Business description"],
  ["website_purpose", "Website purpose"],
] as const satisfies readonly (readonly [StoredField, string])[];

/** The Privacy Preview's check: null when AI has what it needs, else the spec's message. */
export function missingForAi(submission: StoredSubmission): string | null {
  const missing = AI_REQUIRED.filter(([f]) => !present(submission[f])).map(([, label]) => label);
  return missing.length ? `Missing required fields for AI processing: ${missing.join(", ")}` : null;
}

/** The customer chose, on step 12, a site built by hand: no AI prompt is ever generated for the order. */
export function optedOutOfAi(submission: StoredSubmission | null): boolean {
  return Boolean(submission?.privacy_consent?.aiOptOut);
}

/**
 * The privacy audit log's actions: the spec's four, ai_declined (the customer chose a site built by hand,
 * without AI) and data_export (a customer downloaded what we hold about their order).
 */
export const AUDIT_ACTIONS = [
  "ai_processing",
  "consent_given",
  "ai_declined",
  "consent_withdrawn",
  "data_deletion",
  "data_export",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Each action as the admin's audit log names it. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  ai_processing: "AI processing",
  consent_given: "Consent given (AI-assisted build)",
  ai_declined: "AI declined (by-hand build)",
  consent_withdrawn: "Consent withdrawn",
  data_deletion: "Data deleted",
  data_export: "Data exported",
};

/** What a submitted intake's step 12 answer is logged as: consent to AI, or AI declined for a by-hand build. */
export function consentAuditAction(submission: StoredSubmission | null): "consent_given" | "ai_declined" {
  return optedOutOfAi(submission) ? "ai_declined" : "consent_given";
}
