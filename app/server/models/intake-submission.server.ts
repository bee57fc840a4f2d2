import mongoose, { type InferSchemaType } from "mongoose";
import type { StoredField } from "~/domain/intake/data";

const text = { type: String, default: null }; // empty optional text is stored as null
const flag = { type: Boolean, default: null };
const list = (of: unknown = String) => ({ type: [of], default: [] });
const Mixed = mongoose.Schema.Types.Mixed;

/**
 * The intake form's data (rapid_website_submissions): one document per order,
 * created as a draft by the first saved step and completed by Submit. Its `_id`
 * is the order id: every step reads and saves it by `_id` (ARCHITECTURE rule 7),
 * and "one submission per order" holds under any race. `order_id` repeats it
 * (the spec's field, for queries written against that name).
 */
const IntakeSubmissionSchema = new mongoose.Schema(
  {
    _id: {
      type: String,
      required: true,
      default(this: { order_id?: string }) {
        return this.order_id; // the order id
      },
    },
    order_id: { type: String, required: true, unique: true },
    status: { type: String, enum: ["draft", "submitted"], default: "draft" },
    submitted_at: { type: Date, default: null },
    furthest_step: { type: Number, default: 1, min: 1 }, // the furthest step reached with Next (the jump rule)
    // The order of saves (domain/intake/save-order.ts): each save raises the revision; the page that wrote it last.
    revision: { type: Number, default: 0 },
    writer: { type: String, default: null },
    writer_seq: { type: Number, default: null },
    files_version: { type: Number, default: 0 }, // raised by every write of the logo or photo list (server/intake/draft.server.ts)
    // The list editors' item ids, one array per list in its order, by the form's field name (domain/intake/list-ids.ts).
    list_ids: { type: Mixed },
    // The ids a Remove took out, the newest 50 per list: a page that had not heard of the Remove cannot bring the item back.
    list_removed: { type: Mixed },

    // Step 1: business basics
    business_name: text,
    business_legal_name: text,
    abn_acn: text,
    contact_email: text,
    contact_phone: text,
    physical_address: text,
    service_area: text,
    business_hours: text,
    has_domain: flag,
    domain_url: text,
    business_type: text,
    business_type_other: text,
    business_description: text,
    // Step 2: goals and offer
    website_purpose: text,
    website_purpose_other: text,
    main_cta: text,
    specific_offer: text,
    needs_contact_form: { type: Boolean, default: true },
    // Step 3: services
    services_list: list(Mixed), // { name, description, prominent, showPricing, price }
    pricing_approach: text,
    services_grouping: text,
    // Step 4: branding
    logo_url: text,
    logo_key: text, // set when the logo was uploaded (not a link): storage key of the cleaned image
    logo_thumb_key: text, // its small web copy for previews (none for SVG)
    brand_colors: list(),
    style_preference: text,
    style_preference_other: text,
    uploaded_photos: list(),
    photo_metadata: list(Mixed), // StoredPhoto: { id, key, thumbKey, url, fileName, altText, placement, crop, priority }
    // Step 5: SEO and marketing
    primary_domain: text,
    target_keywords: list(),
    competitor_urls: list(),
    social_links: { type: Mixed, default: {} },
    google_business_url: text,
    // Step 6: reviews
    testimonials: list(Mixed), // { author, text, rating }
    review_links: list(Mixed), // { platform, url }
    wants_review_automation: flag,
    wants_review_system: flag,
    // Step 7: pages
    pages_needed: { type: [String], default: ["Home", "Contact"] },
    must_have_sections: list(),
    // Step 8: content
    headline: text,
    key_points: list(),
    existing_content: text,
    // Step 9: legal
    needs_privacy_policy: flag,
    needs_terms_conditions: flag,
    needs_facebook_disclaimer: flag,
    legal_pages_disclaimer: flag,
    // Step 10: integrations and launch
    booking_system: text,
    google_analytics_id: text,
    staff_bios: list(Mixed), // { name, role, bio, headshotUrl }
    video_urls: list(),
    website_style_preference: text,
    website_style_preference_other: text,
    preferred_launch_date: text,
    // Step 11: package
    package_selected: text,
    payment_intent_id: text,
    hosting_preference: text,
    // Step 12-14: privacy and final details
    allow_showcase: flag,
    additional_details: text,
    privacy_consent: { type: Mixed, default: null },
    privacy_level: { type: String, default: "standard" },
    ai_processing_consent: { type: Boolean, default: false },
    data_retention_period: { type: String, enum: ["30days", "1year", "permanent"], default: "30days" },
    ai_safe_data: { type: Mixed, default: null },
    privacy_summary: { type: Mixed, default: null },
    // The answers at the latest submission and at the one before (domain/intake/answers.ts): what changed.
    submitted_answers: { type: Mixed, default: null },
    previous_answers: { type: Mixed, default: null },
    data_deletion_requested: { type: Boolean, default: false },
    data_deletion_date: { type: Date, default: null },
  },
  {
    collection: "rapid_website_submissions",
    timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const,
  },
);

// The admin's deletion requests, keyset pages.
IntakeSubmissionSchema.index({ data_deletion_requested: 1, data_deletion_date: -1, _id: -1 });
// The cron's retention rule: submissions of one retention period last changed before a date.
IntakeSubmissionSchema.index({ data_retention_period: 1, updated_at: 1 });

export const IntakeSubmission = mongoose.model("IntakeSubmission", IntakeSubmissionSchema);

/*
 * The stored fields are the domain's (StoredSubmission, inferred from the step
 * schemas): a field renamed or added on one side only fails `tsc` here, naming it.
 */
type ModelField = keyof InferSchemaType<typeof IntakeSubmissionSchema> | "_id" | "created_at" | "updated_at";
type None<T extends never> = T;
/** @public checked by tsc, used by nothing */
export type IntakeModelMatchesDomain = [
  None<Exclude<ModelField, StoredField>>, // in the model, not in StoredSubmission
  None<Exclude<StoredField, ModelField>>, // in StoredSubmission (or a step schema), not in the model
];
