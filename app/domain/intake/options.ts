/** The intake form's enumerations (spec 1 section 3), each value with the label people see. */
export type Option = { value: string; label: string };

export const BUSINESS_TYPES: Option[] = [
  { value: "trades", label: "Trades" },
  { value: "professional_services", label: "Professional services" },
  { value: "retail", label: "Retail" },
  { value: "hospitality", label: "Hospitality" },
  { value: "health_wellness", label: "Health & wellness" },
  { value: "creative", label: "Creative" },
  { value: "other", label: "Other" },
];

export const WEBSITE_PURPOSES: Option[] = [
  { value: "lead_generation", label: "Get more enquiries" },
  { value: "bookings", label: "Take bookings" },
  { value: "credibility", label: "Look credible and professional" },
  { value: "showcase_services", label: "Show off our services and work" },
  { value: "online_sales", label: "Sell online" },
  { value: "other", label: "Other" },
];

export const PRICING_APPROACHES: Option[] = [
  { value: "show_prices", label: "Show our prices" },
  { value: "contact_for_quote", label: "Ask people to contact us for a quote" },
  { value: "mixed", label: "A mix of both" },
];

export const STYLES: Option[] = [
  { value: "clean_minimal", label: "Clean & minimal" },
  { value: "professional", label: "Professional" },
  { value: "bold_creative", label: "Bold & creative" },
  { value: "premium_luxury", label: "Premium & luxury" },
  { value: "playful_friendly", label: "Playful & friendly" },
  { value: "tech_modern", label: "Tech & modern" },
  { value: "industrial_rugged", label: "Industrial & rugged" },
  { value: "other", label: "Other" },
];

export const PACKAGE_STYLES: Option[] = [
  { value: "modern_minimal", label: "Modern & minimal" },
  { value: "bold_creative", label: "Bold & creative" },
  { value: "professional_corporate", label: "Professional & corporate" },
  { value: "colorful_vibrant", label: "Colourful & vibrant" },
];

export const HOSTING_PREFERENCES: Option[] = [
  { value: "managed", label: "Host it for me (first month included)" },
  { value: "own", label: "I'll host it myself" },
  { value: "undecided", label: "Not sure yet" },
];

export const SERVICES_GROUPINGS: Option[] = [
  { value: "grouped", label: "All on one Services page" },
  { value: "separate", label: "A page for each service" },
];

export const PAGES = ["Home", "About", "Services", "Contact", "Gallery", "Testimonials", "FAQ", "Team"] as const;
export const REQUIRED_PAGES = ["Home", "Contact"] as const;

export const SECTIONS = [
  "Service Area Map",
  "Pricing Table",
  "Before/After Gallery",
  "FAQ Section",
  "Team Bios",
  "Process/How It Works",
  "Guarantees/Certifications",
  "Recent Projects",
] as const;

export const RETENTION_PERIODS: Option[] = [
  { value: "30days", label: "30 days" },
  { value: "1year", label: "1 year" },
  { value: "permanent", label: "Permanently" },
];

export const PHOTO_PLACEMENTS: Option[] = [
  { value: "hero", label: "Top of the home page (hero)" },
  { value: "gallery", label: "Gallery" },
  { value: "service-feature", label: "Beside a service" },
  { value: "team", label: "Team section" },
];
export const PHOTO_CROPS: Option[] = [
  { value: "landscape", label: "Landscape" },
  { value: "portrait", label: "Portrait" },
  { value: "square", label: "Square" },
];
export const PHOTO_PRIORITIES: Option[] = [
  { value: "high", label: "High" },
  { value: "medium", label: "Medium" },
  { value: "low", label: "Low" },
];

export const values = (options: Option[]) => options.map((o) => o.value) as [string, ...string[]];

/** The options of each stored choice field: a stored code ("mixed") reads as the label the form showed. */
const STORED_CHOICES: Record<string, Option[]> = {
  business_type: BUSINESS_TYPES,
  website_purpose: WEBSITE_PURPOSES,
  style_preference: STYLES,
  website_style_preference: STYLES,
  pricing_approach: PRICING_APPROACHES,
  services_grouping: SERVICES_GROUPINGS,
  hosting_preference: HOSTING_PREFERENCES,
  package_selected: PACKAGE_STYLES,
};

/** A stored choice's label ("A mix of both" for pricing_approach "mixed"); undefined for a field that is not a choice. */
export function choiceLabel(field: string, value: unknown): string | undefined {
  const options = STORED_CHOICES[field];
  if (!options) return undefined;
  return options.find((o) => o.value === value)?.label ?? String(value);
}

/** Step 12's first choice: AI-assisted drafting (the four consents), or a site built by hand with nothing sent to AI. */
export const AI_CHOICE = { ai: "ai", byHand: "by_hand" } as const;

/** Step 12's first choice as the form offers it. */
export const AI_CHOICES: Option[] = [
  {
    value: AI_CHOICE.ai,
    label: "Use AI tools to help draft my website (fastest). Please tick the four consents below.",
  },
  { value: AI_CHOICE.byHand, label: "Build my website by hand, without AI. Nothing about my business is sent to AI." },
];

/** Step 12's four consents, each a checkbox AI-assisted drafting needs ticked. */
export const REQUIRED_CONSENTS = [
  "allowAIDataProcessing",
  "allowDataForWebsiteGeneration",
  "understandObfuscation",
  "understandDataUsage",
] as const;
