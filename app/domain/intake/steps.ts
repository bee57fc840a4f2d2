/** The 14 steps of the intake form (spec 1 section 2), in order. */
export type StepMeta = {
  number: number;
  slug: string;
  name: string;
  category: "Essential" | "Enhancement" | "Setup";
  minutes: number;
  /** The step page's heading, where it says more than the name in the jump grid. */
  heading?: string;
};

export const STEPS: StepMeta[] = [
  { number: 1, slug: "business-basics", name: "Business Basics", category: "Essential", minutes: 3 },
  { number: 2, slug: "goals-offer", name: "Goals & Offer", category: "Essential", minutes: 2 },
  { number: 3, slug: "services", name: "Services", category: "Essential", minutes: 3 },
  { number: 4, slug: "branding", name: "Branding", category: "Essential", minutes: 4 },
  { number: 5, slug: "seo-marketing", name: "SEO & Marketing", category: "Enhancement", minutes: 3 },
  { number: 6, slug: "reviews", name: "Reviews", category: "Enhancement", minutes: 3 },
  { number: 7, slug: "pages", name: "Pages", category: "Essential", minutes: 2 },
  { number: 8, slug: "content", name: "Content", category: "Essential", minutes: 3 },
  { number: 9, slug: "legal", name: "Legal", category: "Setup", minutes: 1 },
  {
    number: 10,
    slug: "integrations",
    name: "Integrations",
    category: "Setup",
    minutes: 2,
    heading: "Integrations & Launch",
  },
  { number: 11, slug: "package", name: "Package & Payment", category: "Essential", minutes: 1 },
  { number: 12, slug: "privacy-consent", name: "Privacy & Consent", category: "Essential", minutes: 3 },
  { number: 13, slug: "privacy-preview", name: "Privacy Preview", category: "Essential", minutes: 2 },
  { number: 14, slug: "final-details", name: "Final Details", category: "Enhancement", minutes: 2 },
];

export const TOTAL_STEPS = STEPS.length;
export const FIRST_STEP = 1;

/** The steps with handling of their own, by what they do (spec 1 section 2). */
export const SPECIAL_STEPS = {
  /** Branding: the logo and photo uploads (a multipart form; files are stored by the server). */
  uploads: 4,
  /** Pages: no more than the order includes (domain/order-includes.ts). */
  pages: 7,
  /** Privacy & Consent: the AI choice and the four consents, stored as one consent record. */
  consent: 12,
  /** Privacy Preview: what AI would see; Next waits until nothing it needs is missing. */
  preview: 13,
} as const;

/** The steps that must be complete before the form can be submitted. */
export const REQUIRED_STEPS: readonly number[] = [1, 2, 11, SPECIAL_STEPS.consent];

/** Spec 1: the whole intake takes about 10 minutes (the steps' own minutes weigh each step's share). */
export const INTAKE_ESTIMATED_MINUTES = 10;

export function stepMeta(n: number): StepMeta | undefined {
  return STEPS.find((s) => s.number === n);
}

export const INTAKE_MESSAGES = {
  accessDenied: { title: "Access Denied", description: "Please complete payment first to access the intake form." },
  invalidLink: {
    title: "Invalid Access Link",
    description: "This link isn't valid. Please check your email for the correct link.",
  },
  renewed: { title: "Access Renewed!", description: "Your intake form access has been extended for 30 more days." },
  renewFailed: "Unable to renew access automatically. Please contact support.",
  saved: { title: "Progress Saved", description: "Come back any time with the link in your e-mail." },
  /** Save & Exit with a refused answer: the rest is saved, and the page that follows says what was not. */
  savedExcept: (stepName: string, notSaved: string[]) => ({
    title: "Progress Saved, Except Some Answers",
    description: `Not saved on ${stepName}: ${notSaved.join(" ")} Everything else is saved. Open the step with the link in your e-mail to fix ${notSaved.length === 1 ? "it" : "them"}.`,
  }),
  submitted: { title: "Form Submitted!", description: "Thank you. We'll e-mail you when your first draft is ready." },
  updated: { title: "Form Updated!", description: "Thank you. We've received your changes." },
  submitFailed: "Error: Failed to submit form. Please try again or contact us directly.",
  uploadFailed: "We couldn't save that file. Please try again, or continue without it.",
  completeRequired: "Complete Required Fields First",
} as const;
