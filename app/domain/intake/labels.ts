import type { BriefWords } from "../admin/brief";
import type { IntakeField, IntakeFieldPath } from "./data";
import { isGenericMessage } from "./messages";
import { PHOTO_CROPS, PHOTO_PLACEMENTS, PHOTO_PRIORITIES, type Option } from "./options";

/** One box of a list editor's row. */
export type RowField = {
  key: string;
  label: string;
  type?: "text" | "email" | "tel" | "url" | "date" | "textarea" | "checkbox" | "select";
  options?: Option[];
  hint?: string;
  /** A select's choice for a new row. */
  initial?: string;
  /** With JavaScript, shown only while this checkbox of the same row is ticked (its hint says so for everyone). */
  shownWhen?: string;
};

/** A list editor's words and limits: its legend, what a row is called, its boxes, how many rows at most. */
export type RowList = {
  legend: string;
  itemLabel: string;
  fields: RowField[];
  max: number;
  /** The box whose value makes a row count. */
  keyField: string;
  hint?: string;
};

/**
 * Every box's label, written once: the form shows them, the top alert names the
 * field it is about, and the Privacy Preview uses the same words.
 */
export const LABELS = {
  businessName: "Trading name",
  businessLegalName: "Legal name (if different)",
  abnAcn: "ABN or ACN (optional)",
  contactEmail: "Contact e-mail",
  contactPhone: "Contact phone",
  physicalAddress: "Address (optional)",
  serviceArea: "Service area",
  businessHours: "Business hours",
  hasDomain: "Do you already have a domain name?",
  domainUrl: "Your domain (if yes)",
  businessType: "Business type",
  businessTypeOther: "Your business type",
  businessDescription: "Describe your business",
  websitePurpose: "What is your website mainly for?",
  websitePurposeOther: "What else",
  mainCta: "What should visitors do? (main call to action)",
  specificOffer: "A specific offer (optional)",
  needsContactForm: "Do you want a contact form?",
  servicesList: "Your services",
  pricingApproach: "How do you handle pricing?",
  servicesGrouping: "How should services be shown? (if more than one service)",
  logoUrl: "Or a link to your logo",
  brandColors: "Brand colours",
  // Three style questions, each saying what it is for: the brand's look (step 4), the
  // website's layout (step 10), the package's design style (step 11).
  stylePreference: "Your brand's look",
  stylePreferenceOther: "Describe the style",
  photoMetadata: "Photo details",
  primaryDomain: "Primary domain",
  targetKeywords: "What would customers search for to find you?",
  competitorUrls: "Competitors' websites (up to 3)",
  socialLinks: "Social media",
  "socialLinks.facebook": "Facebook",
  "socialLinks.instagram": "Instagram",
  "socialLinks.youtube": "YouTube",
  "socialLinks.linkedin": "LinkedIn",
  googleBusinessUrl: "Google Business Profile link",
  testimonials: "Testimonials from your customers",
  reviewLinks: "Where people review you",
  wantsReviewAutomation: "Would you like us to ask your customers for reviews automatically?",
  wantsReviewSystem: "Would you like a reviews section on your website?",
  pagesNeeded: "Which pages do you need?",
  mustHaveSections: "Must-have sections",
  headline: "Headline for your home page",
  keyPoints: "Key points to get across",
  existingContent: "Any existing text you'd like us to use",
  needsPrivacyPolicy: "Privacy policy",
  needsTermsConditions: "Terms and conditions",
  needsFacebookDisclaimer: "Facebook disclaimer",
  legalPagesDisclaimer: "Legal Pages Acknowledgement",
  bookingSystem: "Booking system you use (if any)",
  googleAnalyticsId: "Google Analytics ID (if any)",
  staffBios: "Staff bios",
  videoUrls: "Videos to include",
  websiteStylePreference: "Your website's layout",
  websiteStylePreferenceOther: "Describe the style",
  preferredLaunchDate: "Preferred launch date",
  packageSelected: "Design style for your package (required)",
  hostingPreference: "Hosting",
  aiChoice: "How should we build your website?",
  allowAIDataProcessing: "AI processing consent",
  allowDataForWebsiteGeneration: "Website generation consent",
  understandObfuscation: "Protected details consent",
  understandDataUsage: "Data use consent",
  allowShowcase: "You may show my finished website in your portfolio (optional).",
  dataRetentionPeriod: "How long may we keep your data?",
  additionalDetails: "Anything else we should know?",
} satisfies Partial<Record<IntakeFieldPath, string>>;
/** Step 4's file boxes (posted files, not stored fields), as the alert names them. */
const FILE_LABELS: Partial<Record<string, string>> = { logo: "Logo file", photos: "Photos" };
/** A field's label by its path (undefined for a field without one). */
export const labelOf = (path: string): string | undefined =>
  (LABELS as Partial<Record<string, string>>)[path] ?? FILE_LABELS[path];

/** The item of each list of short texts. */
export const LIST_ITEMS = {
  brandColors: "Colour",
  targetKeywords: "Keyword",
  competitorUrls: "Competitor URL",
  keyPoints: "Key point",
  videoUrls: "Video URL",
} as const satisfies Partial<Record<IntakeField, string>>;

/** The list editors of the steps: their legends, items and boxes. */
export const ROWS = {
  testimonials: {
    legend: LABELS.testimonials,
    itemLabel: "Testimonial",
    keyField: "text",
    max: 50,
    hint: "A testimonial needs both the customer's name and what they said.",
    fields: [
      { key: "author", label: "Customer's name" },
      { key: "text", label: "What they said", type: "textarea" },
      {
        key: "rating",
        label: "Rating",
        type: "select",
        initial: "5",
        options: ["5", "4", "3", "2", "1"].map((v) => ({ value: v, label: `${v} stars` })),
      },
    ],
  },
  reviewLinks: {
    legend: LABELS.reviewLinks,
    itemLabel: "Review link",
    keyField: "url",
    max: 20,
    fields: [
      { key: "platform", label: "Platform (e.g. Google, Facebook)" },
      { key: "url", label: "Link", type: "url" },
    ],
  },
  servicesList: {
    legend: LABELS.servicesList,
    itemLabel: "Service",
    keyField: "name",
    max: 50,
    hint: "Each service needs a name. Tick 'Show a price' to put its price on your site.",
    fields: [
      { key: "name", label: "Service name" },
      { key: "description", label: "Short description", type: "textarea" },
      { key: "prominent", label: "Feature this service prominently", type: "checkbox" },
      { key: "showPricing", label: "Show a price for this service", type: "checkbox" },
      {
        key: "price",
        label: "Price",
        hint: "Shown only when 'Show a price for this service' is ticked. e.g. From $99",
        shownWhen: "showPricing",
      },
    ],
  },
  photoMetadata: {
    legend: LABELS.photoMetadata,
    itemLabel: "Photo",
    keyField: "id",
    max: 20,
    fields: [
      { key: "altText", label: "Describe the photo (alt text, required)" },
      { key: "placement", label: "Where should it go?", type: "select", options: PHOTO_PLACEMENTS },
      { key: "crop", label: "Crop", type: "select", options: PHOTO_CROPS },
      { key: "priority", label: "Priority", type: "select", options: PHOTO_PRIORITIES },
    ],
  },
  staffBios: {
    legend: LABELS.staffBios,
    itemLabel: "Staff member",
    keyField: "name",
    max: 50,
    hint: "Each staff member needs a name; role, bio and photo are optional.",
    fields: [
      { key: "name", label: "Name" },
      { key: "role", label: "Role" },
      { key: "bio", label: "Short bio", type: "textarea" },
      { key: "headshotUrl", label: "Link to a headshot photo", type: "url" },
    ],
  },
} satisfies Partial<Record<IntakeField, RowList>>;

/**
 * The words that name a field in a message: "Trading name", "Testimonial 2, What
 * they said", "Key point 3". Undefined for a message about the whole step.
 */
export function fieldLabel(path: string): string | undefined {
  // "(optional)", "(if yes)" and the like say nothing in a message.
  const plain = (label: string) => label.replace(/\s*\([^)]*\)$/, "");
  const m = /^([a-zA-Z]+)(?:\[(\d+)\](?:\.([a-zA-Z]+))?)?$/.exec(path);
  if (!m) return labelOf(path) && plain(labelOf(path)!);
  const [, list, index, key] = m;
  if (index === undefined) return labelOf(list) && plain(labelOf(list)!);
  const n = Number(index) + 1;
  const rows = (ROWS as Partial<Record<string, RowList>>)[list];
  if (rows) {
    const field = rows.fields.find((f) => f.key === key);
    return field ? `${rows.itemLabel} ${n}, ${plain(field.label)}` : `${rows.itemLabel} ${n}`;
  }
  const item = (LIST_ITEMS as Record<string, string>)[list];
  return item ? `${item} ${n}` : undefined;
}

/**
 * A field's message as the step's top alert says it: alone when it is written for its field ("Please enter
 * your trading name"), after the field's label when it could be about any field ("Facebook: Invalid URL
 * format") or a list's row ("Testimonial 2, Customer name: Please add the customer's name").
 */
export function namedError(path: string, message: string): string {
  const label = fieldLabel(path);
  return label && (/\[\d+\]/.test(path) || isGenericMessage(message)) ? `${label}: ${message}` : message;
}

/** The form's words as the admin's Brief reads them (domain/admin/brief.ts). */
export const BRIEF_WORDS: BriefWords = { label: labelOf, rows: ROWS };
