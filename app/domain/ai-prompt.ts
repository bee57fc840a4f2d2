import { intakeProgress } from "./completeness";
import type { StoredSubmission } from "./intake/data";
import { buildShape, type OrderIncludes } from "./order-includes";
import { BUSINESS_TYPES, PRICING_APPROACHES, STYLES, WEBSITE_PURPOSES, type Option } from "./intake/options";
import { aiSafeData, scrub, type AiSafeData } from "./privacy";

/**
 * The AI prompt an admin copies into a site builder (spec 2 sections 2, 5, 7, 9).
 * It is built only from aiSafeData(), the same privacy-filtered view the
 * customer saw in the intake's Privacy Preview: private fields never reach it,
 * protected ones arrive generalised.
 */

const present = (v: unknown) => v !== null && v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0);

/** Spec 2 section 9: tone guidance per business type. */
export const TONE_GUIDANCE: Record<string, string> = {
  trades:
    "Practical, trustworthy and direct: licences, reliability, fast call-outs and clear quotes. Plain words, no jargon.",
  professional_services: "Calm, expert and credible: qualifications, process and outcomes. Measured language, no hype.",
  hospitality: "Warm and inviting: atmosphere, food and drink, opening hours and bookings up front.",
  retail: "Friendly and product-led: what's in store, what makes it special, how to buy or visit.",
  health_wellness: "Caring and reassuring: wellbeing, qualifications and a gentle path to booking. No medical claims.",
  other: "Clear, friendly and professional: what the business does, for whom, and how to get in touch.",
};

export function toneFor(businessType: unknown): string {
  return TONE_GUIDANCE[String(businessType)] ?? TONE_GUIDANCE.other;
}

const label = (options: Option[], value: unknown) => options.find((o) => o.value === value)?.label ?? String(value);

function line(name: string, value: unknown): string | null {
  if (!present(value)) return null;
  if (Array.isArray(value)) {
    const items = value.map((v) =>
      typeof v === "object" && v ? Object.values(v).filter(present).join(" | ") : String(v),
    );
    return `${name}:\n${items.map((i) => `- ${i}`).join("\n")}`;
  }
  return `${name}: ${String(value)}`;
}

/** The services as aiSafeData gives them (name, description, price, showPricing; see privacy.ts). */
type SafeService = Partial<Record<"name" | "description" | "price" | "showPricing", unknown>>;

function servicesText(services: unknown): unknown {
  if (!Array.isArray(services)) return null;
  // "Stormwater ($99): We clear blocked stormwater drains." (the price inside the sentence, never after its full stop).
  return (services as SafeService[]).map((s) => {
    const name = s.showPricing && present(s.price) ? `${String(s.name ?? "")} (${String(s.price)})`.trim() : s.name;
    return [name, s.description].filter(present).join(": ");
  });
}

/**
 * The prompt text, from the privacy-filtered data only. `hasLogo` is a yes/no (the logo itself never goes);
 * `includes` is what the order bought: the prompt says what shapes the build and asks for no more pages than it holds.
 */
export function buildAiPrompt(safe: AiSafeData, options: { hasLogo: boolean; includes: OrderIncludes }): string {
  const { pages } = options.includes;
  const business = [
    line("Business name", safe.business_name),
    line("Legal name", safe.business_legal_name),
    line("ABN/ACN", safe.abn_acn),
    line("Business type", present(safe.business_type) ? label(BUSINESS_TYPES, safe.business_type) : null),
    line("Description", safe.business_description),
    line("Service area", safe.service_area),
    line("Location", safe.physical_address),
    line("Business hours", safe.business_hours),
  ];
  const goals = [
    line("Website purpose", present(safe.website_purpose) ? label(WEBSITE_PURPOSES, safe.website_purpose) : null),
    line("Main call to action", safe.main_cta),
    line("Special offer", safe.specific_offer),
  ];
  const brand = [
    line("Style", present(safe.style_preference) ? label(STYLES, safe.style_preference) : null),
    line("Brand colours", safe.brand_colors),
    `Logo: ${options.hasLogo ? "provided (use it in the header)" : "none yet (use a clean text wordmark)"}`,
  ];
  const content = [
    line("Headline", safe.headline),
    line("Services", servicesText(safe.services_list)),
    line("Pricing approach", present(safe.pricing_approach) ? label(PRICING_APPROACHES, safe.pricing_approach) : null),
    line("Key points", safe.key_points),
    line("Existing content to reuse", safe.existing_content),
    line(
      pages === null ? "Pages" : `Pages (the order includes up to ${pages})`,
      Array.isArray(safe.pages_needed) && pages !== null ? safe.pages_needed.slice(0, pages) : safe.pages_needed,
    ),
    line("Must-have sections", safe.must_have_sections),
  ];
  const seo = [
    line("Domain", safe.primary_domain),
    line("Target keywords", safe.target_keywords),
    line("Competitors", safe.competitor_urls),
    line("Social profiles", safe.social_links),
  ];
  const block = (title: string, lines: (string | null)[]) => {
    const kept = lines.filter((l): l is string => Boolean(l));
    return kept.length ? `## ${title}\n${kept.join("\n")}` : null;
  };
  return [
    "Build a complete, production-ready small-business website from the brief below.",
    block("What was bought", buildShape(options.includes)),
    block("Business", business),
    block("Goals", goals),
    block("Brand", brand),
    block("Content", content),
    block("Search", seo),
    [
      "## Technical requirements",
      "- React with TypeScript, styled with Tailwind CSS.",
      "- Mobile-first and accessible (WCAG 2.1 AA); Google PageSpeed score above 90 on mobile and desktop.",
      "- Each page has a unique title under 60 characters and a meta description under 160 characters.",
      "- The contact form has at most 5 fields.",
      "- Placeholder images only where no photo was provided; descriptive alt text on every image.",
      "- Contact details are added by us after generation: use clear placeholders such as [PHONE] and [EMAIL].",
    ].join("\n"),
    `## Tone\n${toneFor(safe.business_type)}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** The spec's prompt warnings (section 5), from what the submission holds (presence only). */
export function promptWarnings(submission: StoredSubmission): string[] {
  const s = submission;
  const warnings: string[] = [];
  if (!present(s.contact_email) || !present(s.contact_phone))
    warnings.push("Missing critical contact information (email or phone)");
  if (!present(s.business_name)) warnings.push("No business name");
  if (!present(s.business_description)) warnings.push("No business description");
  if (!present(s.brand_colors)) warnings.push("No brand colours");
  if (!present(s.logo_url)) warnings.push("No logo");
  if (!present(s.uploaded_photos)) warnings.push("No photos");
  if (!present(s.headline)) warnings.push("No headline");
  return warnings;
}

export type CompletenessTone = "green" | "amber" | "red";
/** Prompt badge: 90 or more green, 70 or more amber, below red. */
export function completenessTone(percent: number): CompletenessTone {
  return percent >= 90 ? "green" : percent >= 70 ? "amber" : "red";
}

export type PromptView =
  | { state: "no-submission" }
  | { state: "opted-out" }
  | { state: "ready"; completeness: number; tone: CompletenessTone; warnings: string[] };

/** What the AI Prompt tab can show for a submission, before any prompt is generated. */
export function promptView(submission: StoredSubmission | null): PromptView {
  if (!submission || submission.status !== "submitted") return { state: "no-submission" };
  if (submission.ai_processing_consent !== true) return { state: "opted-out" };
  const completeness = intakeProgress(submission);
  return { state: "ready", completeness, tone: completenessTone(completeness), warnings: promptWarnings(submission) };
}

/** The full prompt for a submission whose customer allowed AI processing, or null; as many pages as the order includes. */
export function promptFor(submission: StoredSubmission | null, includes: OrderIncludes): string | null {
  if (promptView(submission).state !== "ready" || !submission) return null;
  return buildAiPrompt(aiSafeData(submission), { hasLogo: present(submission.logo_url), includes });
}

/** A prompt for one revision round: the business (privacy-filtered), the customer's feedback and the admin's notes, contact details scrubbed. */
export function buildRevisionPrompt(input: {
  safe: AiSafeData;
  round: number;
  draftUrl: string | null;
  feedback: string | null;
  notes: string;
}): string {
  return [
    `Revise the website for ${String(input.safe.business_name ?? "this business")} (revision round ${input.round}).`,
    input.draftUrl ? `Current draft: ${input.draftUrl}` : null,
    input.feedback
      ? `## Customer feedback\n${String(scrub(input.feedback))}`
      : "## Customer feedback\nNone submitted for this round.",
    `## Our notes\n${String(scrub(input.notes))}`,
    "## Keep\n- React with TypeScript and Tailwind CSS; PageSpeed above 90; titles under 60 and descriptions under 160 characters; at most 5 contact form fields.",
    `## Tone\n${toneFor(input.safe.business_type)}`,
    "Change only what the feedback and notes ask for, and list each change you made.",
  ]
    .filter(Boolean)
    .join("\n\n");
}
