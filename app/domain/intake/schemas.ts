import * as z from "../zod";
import {
  AI_CHOICE,
  BUSINESS_TYPES,
  HOSTING_PREFERENCES,
  type Option,
  PACKAGE_STYLES,
  PAGES,
  PHOTO_CROPS,
  PHOTO_PLACEMENTS,
  PHOTO_PRIORITIES,
  PRICING_APPROACHES,
  REQUIRED_PAGES,
  REQUIRED_CONSENTS,
  RETENTION_PERIODS,
  SECTIONS,
  SERVICES_GROUPINGS,
  STYLES,
  values,
  WEBSITE_PURPOSES,
} from "./options";
import { sydneyDateInput } from "../dates";
import { EmailSchema } from "../schemas";
import { GENERIC_MESSAGES } from "./messages";
import { ROW_CONTENT } from "./list-ids";

/**
 * One schema per step (spec 1 section 5), parsed on the server; the browser checks the rules `formRules` derives.
 * "next" enforces the step's required fields; "draft" (Back, Save & Exit, list
 * edits) keeps every bound but lets an unfinished step be saved.
 */
export type Mode = "next" | "draft";

const tooLong = GENERIC_MESSAGES.tooLong;
const text = (max: number, min?: [number, string]) =>
  z.string().check(z.trim(), z.maxLength(max, tooLong(max)), ...(min ? [z.minLength(min[0], min[1])] : []));
/** Empty optional text is undefined here and stored as null. */
const optText = (max: number) => z.optional(text(max));
const required = (mode: Mode, schema: z.ZodMiniType<string, string>, message: string) =>
  mode === "next" ? z.pipe(z.string({ error: message }), schema) : z.optional(schema);

/**
 * A URL, or empty. "www.example.com.au" is accepted as https://www.example.com.au. A web address has a
 * dotted host name: "https://@leakbusters" or "https://leakbusters" is no page anyone can open.
 */
const webAddress = z.url({ protocol: /^https?$/, hostname: /^[^.]+(\.[^.]+)+$/, error: GENERIC_MESSAGES.invalidUrl });
const withScheme = (v: string) => (v && !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? `https://${v}` : v);
export const UrlSchema = z.pipe(z.pipe(text(2000), z.transform(withScheme)), webAddress);
const optUrl = z.optional(UrlSchema);

/**
 * Where a handle lives on each social platform: a social field takes the profile's full
 * address or its handle, and stores the address ("@leakbusters" on Instagram is
 * https://www.instagram.com/leakbusters).
 */
export const SOCIAL_PROFILES = {
  facebook: (handle: string) => `https://www.facebook.com/${handle}`,
  instagram: (handle: string) => `https://www.instagram.com/${handle}`,
  youtube: (handle: string) => `https://www.youtube.com/@${handle}`,
  linkedin: (handle: string) => `https://www.linkedin.com/company/${handle}`,
} as const;
/** "@leak.busters", or a single word ("leakbusters"); a dotted word without "@" is a web address. */
const HANDLE = /^@([\w.-]{1,100})$|^([\w-]{1,100})$/;
const socialUrl = (profile: (handle: string) => string) =>
  z.optional(
    z.pipe(
      z.pipe(
        text(2000),
        z.transform((v: string) => {
          const handle = HANDLE.exec(v);
          return handle ? profile(handle[1] ?? handle[2]!) : withScheme(v);
        }),
      ),
      webAddress,
    ),
  );

const yesNo = z.pipe(
  z.enum(["yes", "no"]),
  z.transform((v) => v === "yes"),
);
const checkbox = z.pipe(
  z.optional(z.literal("on")),
  z.transform((v) => v === "on"),
);
const choice = (options: Option[], message: string = GENERIC_MESSAGES.choose) =>
  z.enum(values(options), { error: message });
const optChoice = (options: Option[]) => z.optional(choice(options));

/**
 * A list field whose post is not a list of the right things (`servicesList=x`,
 * `brandColors.name=x`): the form never sends that, so it is refused with this.
 */
export const LIST_SHAPE_MESSAGE =
  "Part of this form arrived in a shape we don't recognise. Please reload the page and try again.";
const shape = { error: LIST_SHAPE_MESSAGE };
const LIST_SHAPE = shape;

/** A list of short texts: blanks are dropped, at most `max` kept. */
/** A list of items, blanks dropped, at most `max` kept. */
const list = (item: z.ZodMiniType<string | undefined>, max: number, label: string) =>
  z.pipe(
    z.pipe(
      z._default(z.array(item, shape), []),
      z.transform((items) => items.filter((i): i is string => Boolean(i))),
    ),
    z.array(z.string()).check(z.maxLength(max, GENERIC_MESSAGES.atMost(max, `${label}s`))),
  );
const textList = (max: number, itemMax: number, label: string) =>
  list(
    z.optional(
      z.string(shape).check(z.trim(), z.maxLength(itemMax, `Each ${label} must be ${itemMax} characters or fewer`)),
    ),
    max,
    label,
  );
const urlList = (max: number, label: string) => list(z.optional(z.pipe(z.string(shape), UrlSchema)), max, label);

/**
 * A list editor posts numbered rows (`servicesList[0].name`); one row posted
 * without its number (`servicesList.name=x`) is refused, not taken as a list of one.
 * It runs on the raw post, before Conform makes a single value into a list.
 */
const onlyRows = z.transform((value: unknown, ctx) => {
  if (value && typeof value === "object" && !Array.isArray(value))
    ctx.issues.push({ code: "custom", message: LIST_SHAPE_MESSAGE, input: value });
  return value;
});

/**
 * Rows of a list editor. An entirely blank row (the empty "add another" row) is
 * dropped; a row with something typed but a required box empty is never dropped
 * silently: the missing box gets a message and the row stays on the form. A row
 * with a field the editor does not have is refused.
 */
function rows<T extends z.core.$ZodShape>(
  fields: T,
  {
    need,
    max,
    label,
    content = Object.keys(fields),
    check,
  }: {
    /** The boxes a row cannot be saved without, each with its message. */
    need: Partial<Record<keyof T & string, string>>;
    max: number;
    label: string;
    /** The boxes that make a row "typed in" (a select with a default does not). */
    content?: readonly (keyof T & string)[];
    /** One more rule for a row: the box it concerns and its message, or null. */
    check?: (row: Record<string, unknown>) => [key: string, message: string] | null;
  },
) {
  const hasContent = (row: Record<string, unknown>) =>
    content.some((k) => row[k] !== undefined && row[k] !== "" && row[k] !== false);
  const typed = z.pipe(
    onlyRows,
    z._default(z.array(z.partial(z.strictObject(fields, LIST_SHAPE)), LIST_SHAPE), []).check(
      z.superRefine((items, ctx) => {
        (items as Record<string, unknown>[]).forEach((row, i) => {
          if (!hasContent(row)) return;
          for (const [key, message] of Object.entries(need) as [string, string][]) {
            if (!row[key]) ctx.addIssue({ code: "custom", path: [i, key], message });
          }
          const problem = check?.(row);
          if (problem) ctx.addIssue({ code: "custom", path: [i, problem[0]], message: problem[1] });
        });
      }),
    ),
  );
  return z.pipe(
    z.pipe(
      typed,
      z.transform((items) => items.filter(hasContent)),
    ),
    // A row as kept: the boxes typed in (a row's type, for the data types in data.ts).
    z
      .array(z.custom<{ [K in keyof T]?: z.output<T[K]> }, never>())
      .check(z.maxLength(max, GENERIC_MESSAGES.atMost(max, label))),
  );
}

export const PRICE_WITHOUT_TICK = "Tick 'Show a price for this service' to show this price, or clear it";

export const ServiceItemSchema = {
  name: text(200),
  description: text(1000),
  prominent: checkbox,
  showPricing: checkbox,
  price: text(100),
};
const RATING = GENERIC_MESSAGES.rating;
export const TestimonialSchema = {
  author: text(100),
  text: text(1000),
  rating: z._default(z.coerce.number().check(z.int(RATING), z.gte(1, RATING), z.lte(5, RATING)), 5),
};
export const ReviewLinkSchema = { platform: text(50), url: UrlSchema };
export const StaffBioSchema = { name: text(100), role: text(100), bio: text(1000), headshotUrl: UrlSchema };
/**
 * The details a customer gives each stored photo. A row names its photo by the
 * `id` the server gave it; the file's key and address come only from the
 * server's record, never from a post.
 */
/** A photo's alt text is marked required (spec 1): said on its own field. */
export const ALT_TEXT_REQUIRED = "Alt text is required";
export const PhotoDetailsSchema = {
  id: z.string().check(z.regex(/^[0-9a-f]{24}$/, "Unknown photo")),
  altText: text(300),
  placement: z._default(choice(PHOTO_PLACEMENTS), "gallery"),
  crop: z._default(choice(PHOTO_CROPS), "landscape"),
  priority: z._default(choice(PHOTO_PRIORITIES), "medium"),
};

const step1 = (mode: Mode) =>
  z.pipe(
    z.object({
      businessName: required(mode, text(200, [1, "Please enter your trading name"]), "Please enter your trading name"),
      businessLegalName: optText(200),
      abnAcn: optText(20),
      contactEmail: required(mode, EmailSchema, "Please enter your contact e-mail"),
      contactPhone: required(mode, text(20, [1, "Please enter your contact phone"]), "Please enter your contact phone"),
      physicalAddress: optText(500),
      serviceArea: optText(500),
      businessHours: optText(500),
      hasDomain: z.optional(yesNo),
      domainUrl: optUrl,
      businessType:
        mode === "next" ? choice(BUSINESS_TYPES, "Please choose your business type") : optChoice(BUSINESS_TYPES),
      businessTypeOther: optText(200),
      businessDescription: required(
        mode,
        text(2000, [10, "Please describe your business in at least 10 characters"]),
        "Please describe your business",
      ),
    }),
    // Answers to questions that do not apply are not kept.
    z.transform((v) => ({
      ...v,
      domainUrl: v.hasDomain ? v.domainUrl : undefined,
      businessTypeOther: v.businessType === "other" ? v.businessTypeOther : undefined,
    })),
  );

const step2 = (mode: Mode) =>
  z.pipe(
    z.object({
      websitePurpose:
        mode === "next"
          ? choice(WEBSITE_PURPOSES, "Please choose what your website is mainly for")
          : optChoice(WEBSITE_PURPOSES),
      websitePurposeOther: optText(200),
      mainCta: required(
        mode,
        text(200, [1, "Please say what visitors should do"]),
        "Please say what visitors should do",
      ),
      specificOffer: optText(500),
      needsContactForm: z.pipe(
        z.optional(yesNo),
        z.transform((v) => v ?? true),
      ),
    }),
    z.transform((v) => ({
      ...v,
      websitePurposeOther: v.websitePurpose === "other" ? v.websitePurposeOther : undefined,
    })),
  );

// Each list editor's content boxes (list-ids.ts) are boxes of its rows.
ROW_CONTENT satisfies {
  servicesList: readonly (keyof typeof ServiceItemSchema)[];
  testimonials: readonly (keyof typeof TestimonialSchema)[];
  reviewLinks: readonly (keyof typeof ReviewLinkSchema)[];
  staffBios: readonly (keyof typeof StaffBioSchema)[];
};

const step3 = (_mode: Mode) =>
  z.pipe(
    z.object({
      servicesList: rows(ServiceItemSchema, {
        need: { name: "Please name this service, or clear its boxes" },
        max: 50,
        label: "services",
        content: ROW_CONTENT.servicesList,
        // A price is shown only when its tick is on; one typed without the tick is pointed out, never dropped.
        check: (s) => (s.price && !s.showPricing ? ["price", PRICE_WITHOUT_TICK] : null),
      }),
      pricingApproach: optChoice(PRICING_APPROACHES),
      servicesGrouping: optChoice(SERVICES_GROUPINGS),
    }),
    z.transform((v) => ({
      ...v,
      servicesList: v.servicesList.map((s) => ({
        ...s,
        price: s.showPricing ? s.price : undefined,
      })),
      servicesGrouping: v.servicesList.length > 1 ? v.servicesGrouping : undefined,
    })),
  );

const step4 = (mode: Mode) =>
  z.pipe(
    z
      .object({
        logoUrl: optUrl,
        brandColors: textList(10, 50, "colour"),
        stylePreference: optChoice(STYLES),
        stylePreferenceOther: optText(500),
        photoMetadata: z._default(
          z
            .array(z.partial(z.strictObject(PhotoDetailsSchema, shape), { altText: true }), shape)
            .check(z.maxLength(20, "At most 20 photos")),
          [],
        ),
      })
      .check(
        z.superRefine((v, ctx) => {
          if (mode !== "next") return;
          v.photoMetadata.forEach((p, i) => {
            if (!p.altText)
              ctx.addIssue({ code: "custom", path: ["photoMetadata", i, "altText"], message: ALT_TEXT_REQUIRED });
          });
        }),
      ),
    z.transform((v) => ({
      ...v,
      stylePreferenceOther: v.stylePreference === "other" ? v.stylePreferenceOther : undefined,
    })),
  );

const step5 = (mode: Mode) =>
  z.object({
    primaryDomain: required(
      mode,
      text(255, [1, "Please enter your primary domain"]),
      "Please enter your primary domain",
    ),
    targetKeywords: textList(20, 100, "keyword"),
    competitorUrls: urlList(3, "competitor URL"),
    socialLinks: z._default(
      z.object(
        {
          facebook: socialUrl(SOCIAL_PROFILES.facebook),
          instagram: socialUrl(SOCIAL_PROFILES.instagram),
          youtube: socialUrl(SOCIAL_PROFILES.youtube),
          linkedin: socialUrl(SOCIAL_PROFILES.linkedin),
        },
        shape,
      ),
      {},
    ),
    googleBusinessUrl: optUrl,
  });

const step6 = (_mode: Mode) =>
  z.object({
    // The rating alone (5 by default) is not something typed: a row needs a name or words to count.
    testimonials: rows(TestimonialSchema, {
      need: { author: "Please add the customer's name", text: "Please add what they said" },
      max: 50,
      label: "testimonials",
      content: ROW_CONTENT.testimonials,
    }),
    reviewLinks: rows(ReviewLinkSchema, {
      need: { url: "Please add the link, or clear the platform" },
      max: 20,
      label: "review links",
      content: ROW_CONTENT.reviewLinks,
    }),
    wantsReviewAutomation: z.optional(yesNo),
    wantsReviewSystem: z.optional(yesNo),
  });

const step7 = (_mode: Mode) =>
  z.object({
    pagesNeeded: z.pipe(
      z._default(z.array(z.enum(PAGES, shape), shape), []),
      // Home and Contact are always included.
      z.transform((pages) =>
        PAGES.filter((p) => pages.includes(p) || (REQUIRED_PAGES as readonly string[]).includes(p)),
      ),
    ),
    mustHaveSections: z._default(z.array(z.enum(SECTIONS, shape), shape), []),
  });

const step8 = (_mode: Mode) =>
  z.object({
    headline: optText(200),
    keyPoints: textList(20, 500, "key point"),
    existingContent: optText(10000),
  });

const step9 = (mode: Mode) =>
  z.object({
    needsPrivacyPolicy: checkbox,
    needsTermsConditions: checkbox,
    needsFacebookDisclaimer: checkbox,
    legalPagesDisclaimer:
      mode === "next"
        ? z.pipe(
            z.literal("on", { error: "Please tick the Legal Pages Acknowledgement to continue" }),
            z.transform(() => true),
          )
        : checkbox,
  });

/** A launch date is a day to come (a past one is refused, never taken silently), today counted in Sydney. */
export const LAUNCH_DATE_PAST = "The launch date has passed. Please choose today or a later date";

const step10 = (_mode: Mode) =>
  z.pipe(
    z.object({
      bookingSystem: optText(200),
      googleAnalyticsId: optText(50),
      staffBios: rows(StaffBioSchema, {
        need: { name: "Please add this person's name, or clear their boxes" },
        max: 50,
        label: "staff members",
        content: ROW_CONTENT.staffBios,
      }),
      videoUrls: urlList(20, "video URL"),
      websiteStylePreference: optChoice(STYLES),
      websiteStylePreferenceOther: optText(500),
      preferredLaunchDate: z.optional(
        z.iso
          .date({ error: GENERIC_MESSAGES.date })
          .check(z.refine((day) => day >= sydneyDateInput(new Date()), LAUNCH_DATE_PAST)),
      ),
    }),
    z.transform((v) => ({
      ...v,
      websiteStylePreferenceOther: v.websiteStylePreference === "other" ? v.websiteStylePreferenceOther : undefined,
    })),
  );

const step11 = (mode: Mode) =>
  z.object({
    packageSelected:
      mode === "next"
        ? choice(PACKAGE_STYLES, "Please choose a design style for your package")
        : optChoice(PACKAGE_STYLES),
    hostingPreference: optChoice(HOSTING_PREFERENCES),
  });

export const CONSENT_NOT_TICKED = "Please tick this consent, or choose to have your website built by hand";

const step12 = (mode: Mode) =>
  z.pipe(
    z
      .object({
        aiChoice: z._default(
          z.enum([AI_CHOICE.ai, AI_CHOICE.byHand], { error: "Please choose how we should build your website" }),
          AI_CHOICE.ai,
        ),
        allowAIDataProcessing: checkbox,
        allowDataForWebsiteGeneration: checkbox,
        understandObfuscation: checkbox,
        understandDataUsage: checkbox,
        allowShowcase: checkbox,
        dataRetentionPeriod: z._default(choice(RETENTION_PERIODS), "30days"),
      })
      .check(
        z.superRefine((v, ctx) => {
          if (mode === "next" && v.aiChoice === AI_CHOICE.ai && REQUIRED_CONSENTS.some((k) => !v[k])) {
            ctx.addIssue({ code: "custom", path: [], message: "Please tick all four required consents to continue" });
            // Each box left unticked says so too, so the alert links to it.
            for (const k of REQUIRED_CONSENTS.filter((k) => !v[k]))
              ctx.addIssue({ code: "custom", path: [k], message: CONSENT_NOT_TICKED });
          }
        }),
      ),
    // Opting out withdraws every AI consent, whatever boxes were left ticked.
    z.transform((v) =>
      v.aiChoice === AI_CHOICE.byHand ? { ...v, ...Object.fromEntries(REQUIRED_CONSENTS.map((k) => [k, false])) } : v,
    ),
  );

const step13 = (_mode: Mode) => z.object({});

const step14 = (_mode: Mode) => z.object({ additionalDetails: optText(5000) });

export const STEP_SCHEMAS = [
  step1,
  step2,
  step3,
  step4,
  step5,
  step6,
  step7,
  step8,
  step9,
  step10,
  step11,
  step12,
  step13,
  step14,
] as const;

/** Each step's schema is built once per mode and reused: a schema holds no state of a request. */
const builtSchemas = new Map<string, ReturnType<(typeof STEP_SCHEMAS)[number]>>();

export function stepSchema(step: number, mode: Mode) {
  const key = `${step}:${mode}`;
  let schema = builtSchemas.get(key);
  if (!schema) {
    const build = STEP_SCHEMAS[step - 1];
    if (!build) throw new Error(`No intake step ${step}`);
    schema = build(mode);
    builtSchemas.set(key, schema);
  }
  return schema;
}

/** How each list field of the intake is posted: a list of texts, a list of rows of texts, or one row. */
const LIST_FIELDS: Record<string, "texts" | "rows" | "row"> = {
  servicesList: "rows",
  brandColors: "texts",
  photoMetadata: "rows",
  targetKeywords: "texts",
  competitorUrls: "texts",
  socialLinks: "row",
  testimonials: "rows",
  reviewLinks: "rows",
  pagesNeeded: "texts",
  mustHaveSections: "texts",
  keyPoints: "texts",
  staffBios: "rows",
  videoUrls: "texts",
};

const isText = (v: unknown) => v === undefined || v === null || typeof v === "string";
const isRow = (v: unknown) =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every(isText);

/**
 * A refused post's values as the form can show them again: every field in the
 * shape the form sends it, anything else dropped (a post such as `servicesList=x`
 * gets its message, and the page never tries to draw a list out of a string).
 */
export function keepListShapes(value: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!value) return value;
  const ok = (key: string, v: unknown) => {
    switch (LIST_FIELDS[key]) {
      case "texts":
        return Array.isArray(v) && v.every(isText);
      case "rows":
        return Array.isArray(v) && v.every((row) => row === undefined || row === null || isRow(row));
      case "row":
        return isRow(v);
      default:
        return isText(v);
    }
  };
  // The items' ids (list-ids.ts) go back with the rows they name: an object of lists of texts.
  const idLists = (v: unknown) =>
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((ids) => Array.isArray(ids) && ids.every(isText));
  return Object.fromEntries(Object.entries(value).filter(([key, v]) => (key === "listIds" ? idLists(v) : ok(key, v))));
}
