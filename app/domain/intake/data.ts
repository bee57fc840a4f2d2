import { AI_CHOICE, REQUIRED_CONSENTS } from "./schemas";
import { TOTAL_STEPS } from "./steps";

/**
 * The intake data as the form names it (camelCase, spec 1 section 3), and its
 * stored form (snake_case, rapid_website_submissions).
 */
export type IntakeData = Record<string, unknown>;
export type StoredSubmission = Record<string, unknown>;

export const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const toCamel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const PRIVACY_VERSION = "1.0";

/**
 * A step's parsed values as the $set that stores them. Every field of the step is
 * written, so clearing a field clears it; empty optional text becomes null.
 */
export function storedFields(step: number, values: IntakeData, now = new Date()): StoredSubmission {
  if (step === 12) {
    const consent = {
      allowAIDataProcessing: Boolean(values.allowAIDataProcessing),
      allowDataForWebsiteGeneration: Boolean(values.allowDataForWebsiteGeneration),
      dataRetentionPeriod: String(values.dataRetentionPeriod ?? "30days"),
      allowShowcase: Boolean(values.allowShowcase),
      understandObfuscation: Boolean(values.understandObfuscation),
      understandDataUsage: Boolean(values.understandDataUsage),
      // The customer chose a site built by hand: no AI prompt is ever generated for this order.
      aiOptOut: values.aiChoice === AI_CHOICE.byHand,
      timestamp: now.toISOString(),
      version: PRIVACY_VERSION,
    };
    return {
      privacy_consent: consent,
      ai_processing_consent: consent.allowAIDataProcessing,
      allow_showcase: consent.allowShowcase,
      data_retention_period: consent.dataRetentionPeriod,
    };
  }
  const out: StoredSubmission = {};
  for (const [key, value] of Object.entries(values))
    out[toSnake(key)] = value === undefined || value === "" ? null : value;
  if (step === 4) out.uploaded_photos = ((values.photoMetadata as { url: string }[]) ?? []).map((p) => p.url);
  return out;
}

/** The stored submission as form values, for prefilling every step. */
export function formValues(doc: StoredSubmission | null): IntakeData {
  if (!doc) return {};
  const out: IntakeData = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === "_id" || key === "__v" || value === null || value === undefined) continue;
    out[toCamel(key)] = value;
  }
  const consent = doc.privacy_consent as Record<string, unknown> | null;
  if (consent) {
    for (const k of [...REQUIRED_CONSENTS, "allowShowcase"]) out[k] = consent[k] ? "on" : undefined;
    out.dataRetentionPeriod = consent.dataRetentionPeriod;
    out.aiChoice = consent.aiOptOut ? AI_CHOICE.byHand : AI_CHOICE.ai;
  }
  for (const k of ["hasDomain", "needsContactForm", "wantsReviewAutomation", "wantsReviewSystem"]) {
    if (typeof out[k] === "boolean") out[k] = out[k] ? "yes" : "no";
  }
  for (const k of ["needsPrivacyPolicy", "needsTermsConditions", "needsFacebookDisclaimer", "legalPagesDisclaimer"]) {
    out[k] = out[k] ? "on" : undefined;
  }
  out.servicesList = ((out.servicesList as Record<string, unknown>[]) ?? []).map((s) => ({
    ...s,
    prominent: s.prominent ? "on" : undefined,
    showPricing: s.showPricing ? "on" : undefined,
  }));
  return out;
}

const filled = (v: unknown) =>
  Array.isArray(v)
    ? v.length > 0
    : v && typeof v === "object"
      ? Object.values(v).some(Boolean)
      : v !== null && v !== undefined && v !== "";

/**
 * Which steps are done, by the rules of spec 1 section 4 (read from the stored
 * data, so reopening the form marks them the same way). Steps 13 and 14 have no
 * data of their own: they are done once the customer has moved past them.
 */
export function completedSteps(doc: StoredSubmission | null): number[] {
  if (!doc) return [];
  const d = doc;
  const rules: [number, boolean][] = [
    [1, filled(d.business_name) && filled(d.contact_email) && filled(d.contact_phone)],
    [2, filled(d.website_purpose)],
    [3, filled(d.services_list)],
    [4, filled(d.brand_colors) || filled(d.style_preference) || filled(d.uploaded_photos)],
    [5, filled(d.primary_domain) || filled(d.target_keywords) || filled(d.social_links)],
    [6, filled(d.testimonials) || filled(d.review_links) || filled(d.google_business_url)],
    [7, filled(d.pages_needed)],
    [8, filled(d.headline) || filled(d.key_points) || filled(d.existing_content)],
    [
      9,
      Boolean(
        d.needs_privacy_policy || d.needs_terms_conditions || d.needs_facebook_disclaimer || d.legal_pages_disclaimer,
      ),
    ],
    [10, filled(d.booking_system) || filled(d.google_analytics_id) || filled(d.staff_bios)],
    [11, filled(d.package_selected)],
    [12, d.allow_showcase !== null && d.allow_showcase !== undefined],
    [13, Number(d.furthest_step ?? 0) > 13],
    [14, d.status === "submitted"],
  ];
  return rules.filter(([, done]) => done).map(([n]) => n);
}

/** The 35 items the admin and dashboard progress count (spec 2 section 5). */
const PROGRESS_ITEMS: ((d: StoredSubmission) => boolean)[] = [
  (d) => filled(d.business_name),
  (d) => filled(d.contact_phone),
  (d) => filled(d.contact_email),
  (d) => filled(d.business_description),
  (d) => filled(d.business_type),
  (d) => filled(d.business_legal_name),
  (d) => filled(d.abn_acn),
  (d) => filled(d.business_hours),
  (d) => filled(d.website_purpose),
  (d) => filled(d.main_cta),
  (d) => filled(d.services_list),
  (d) => filled(d.pricing_approach),
  (d) => filled(d.logo_url),
  (d) => filled(d.brand_colors),
  (d) => filled(d.style_preference),
  (d) => filled(d.uploaded_photos),
  (d) => filled(d.primary_domain),
  (d) => filled(d.target_keywords),
  (d) => filled(d.google_business_url),
  (d) => filled(d.social_links),
  (d) => filled(d.testimonials),
  (d) => filled(d.review_links),
  (d) => filled(d.pages_needed),
  (d) => filled(d.must_have_sections),
  (d) => filled(d.headline),
  (d) => filled(d.key_points),
  (d) => Boolean(d.needs_privacy_policy),
  (d) => Boolean(d.needs_terms_conditions),
  (d) => Boolean(d.needs_facebook_disclaimer),
  (d) => filled(d.google_analytics_id),
  (d) => filled(d.booking_system),
  (d) => filled(d.preferred_launch_date),
  (d) => filled(d.package_selected),
  (d) => filled(d.hosting_preference),
  (d) => d.wants_review_system !== null && d.wants_review_system !== undefined,
];
export const PROGRESS_DENOMINATOR = 35;

/** intake_progress: filled items out of 35, as a rounded percentage. */
export function intakeProgress(doc: StoredSubmission | null): number {
  if (!doc) return 0;
  const count = PROGRESS_ITEMS.filter((item) => item(doc)).length;
  return Math.round((count / PROGRESS_DENOMINATOR) * 100);
}

/** The furthest step reached with Next (1 before anything is saved). */
export function furthestStep(doc: StoredSubmission | null): number {
  return Math.min(TOTAL_STEPS, Math.max(1, Number(doc?.furthest_step ?? 1) || 1));
}

/** The jump rule: a step may be opened when it is done or not beyond the furthest step reached. */
export function canOpenStep(step: number, doc: StoredSubmission | null): boolean {
  return step <= furthestStep(doc) || completedSteps(doc).includes(step);
}

/** The posted values without item `index` of list `field` (a Remove button); other values as posted. */
export function withoutItem(values: IntakeData, field: string, index: number): IntakeData {
  const list = values[field];
  if (!Array.isArray(list)) return values;
  return { ...values, [field]: list.filter((_, i) => i !== index) };
}
