import type { StoredSubmission } from "./intake/data";

/**
 * How complete an intake is, by the spec's two definitions, from this one module:
 * - the admin and the dashboard count 35 items (spec 2 sections 5 and 9): `intakeProgress`, stored
 *   on the order as intake_progress;
 * - the order status page counts 20 (spec 2 section 3): `customerCompleteness`; 'Intake form
 *   completed! ...' shows only at 100% of those 20.
 * A submitted intake is "submitted": the customer pressed Submit (orders.ts `intakeFinished`), which
 * says nothing about how complete it is. The pages say both, each truthfully.
 */

/** An answer given: a non-empty list, an object with a value, or a non-empty scalar. */
export const filled = (v: unknown) =>
  Array.isArray(v)
    ? v.length > 0
    : v && typeof v === "object"
      ? Object.values(v).some(Boolean)
      : v !== null && v !== undefined && v !== "";

type Item = (d: StoredSubmission) => boolean;
const percentOf = (items: readonly Item[], doc: StoredSubmission | null) =>
  doc ? Math.round((items.filter((item) => item(doc)).length / items.length) * 100) : 0;

/** The 35 items the admin and dashboard progress count (spec 2 section 5). */
const PROGRESS_ITEMS: readonly Item[] = [
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

/** intake_progress (admin and dashboard): filled items out of 35, as a rounded percentage. */
export const intakeProgress = (doc: StoredSubmission | null): number => percentOf(PROGRESS_ITEMS, doc);

/** The 20 items a customer's completeness counts (spec 2: order status page). */
const CUSTOMER_ITEMS: readonly Item[] = [
  (d) => filled(d.business_name),
  (d) => filled(d.contact_email),
  (d) => filled(d.contact_phone),
  (d) => filled(d.business_description),
  (d) => filled(d.website_purpose),
  (d) => filled(d.services_list),
  (d) => filled(d.brand_colors),
  (d) => filled(d.logo_url),
  (d) => filled(d.uploaded_photos),
  (d) => filled(d.pages_needed),
  (d) => filled(d.headline),
  (d) => filled(d.testimonials),
  (d) => filled(d.primary_domain),
  (d) => filled(d.target_keywords),
  (d) => filled(d.social_links),
  (d) => typeof d.needs_contact_form === "boolean",
  (d) => filled(d.package_selected),
  (d) => filled(d.style_preference),
  (d) => filled(d.main_cta),
  (d) => filled(d.business_hours),
];

/** The order status page's completeness: filled items out of 20, as a rounded percent. */
export const customerCompleteness = (doc: StoredSubmission | null): number => percentOf(CUSTOMER_ITEMS, doc);

/** Spec 2 section 3: shown at 100% of the 20 items, and only then. */
export const INTAKE_COMPLETE_MESSAGE = "Intake form completed! We're building your website now.";
export const intakeCompleteMessage = (percent: number) => (percent === 100 ? INTAKE_COMPLETE_MESSAGE : null);

/** Beside the percentage: whether the customer has pressed Submit (not the same as 100%). */
export const submittedLine = (submitted: boolean) =>
  submitted ? "Submitted: we have your intake form." : "Not submitted yet.";
