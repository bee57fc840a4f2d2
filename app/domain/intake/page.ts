import type { FormRules } from "../form-rules";
import type { IntakeData } from "./data";
import type { Conflict } from "./save-order";

/**
 * What an intake step's page is given and answered (server/intake/step.server.ts fills both; each
 * step's route module, app/routes/intake-form_.N.tsx, shows them through components/intake/StepPage.tsx).
 */

/** Step 13's data: exactly aiSafeData() of the saved submission, and whether the customer opted out of AI. */
export type PreviewData = { data: Record<string, unknown>; missing: string | null; byHand: boolean };

/** What some steps show besides their fields: step 4's files, step 5's map search, step 13's preview. */
export type StepExtras = {
  logo: { url: string; uploaded: boolean } | null;
  photos: { id: string; url: string; fileName: string }[];
  uploadLimits: { logo: string; photos: string };
  mapsSearchUrl: string | null;
  preview: PreviewData | null;
  /** Step 11's banner: "Your Starter package is paid for." (domain/order-includes.ts) */
  paidFor: string;
  /** Step 7's hint, "Your order includes up to 7 pages."; null: unlimited. Written on the server, so the step's script stays small. */
  pagesIncluded: string | null;
};

/** A step page's loader data. */
export type StepPageData = {
  step: number;
  name: string;
  values: IntakeData;
  completed: number[];
  furthest: number;
  savedAt: string | null;
  revision: number;
  /** Who wrote the stored step last (its writer id, save-order.ts): a device copy typed on that page is current. */
  savedBy: string | null;
  /** This page load's writer id (save-order.ts), for the page without JavaScript: its posts are one page's saves. */
  pageWriter: string;
  /** Names this order's copies on the device (components/useDeviceCopy.ts) without the order id itself. */
  copyKey: string;
  /** The step's rules for the browser's own check, derived from its schema (server/form-rules.server.ts). */
  rules: FormRules;
  extras: StepExtras;
  /** The list whose add box takes focus on a page drawn without scripts: the one the last post added to. */
  focusAdd: string | null;
};

/** A refused post's messages by field (`""` for the step) and what was typed, as the form shows them again. */
export type StepResult = {
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
};

/** A step post's answer when it does not redirect. */
export type StepAnswer = {
  result: StepResult | null;
  /** A message beside the saved state (the step was saved). */
  notice?: string;
  /** Messages about what was saved (a new photo without alt text), by field. */
  fieldErrors?: Record<string, string[]>;
  conflict?: Conflict;
  /**
   * The post's other answers were saved: `result.initialValue` holds only the refused ones, shown over the
   * saved step (domain/intake/refused.ts).
   */
  savedBeside?: true;
  /** An autosave's answer: when it was saved, Sydney time as a person reads it ("2:48 pm"; null: refused). */
  savedTime?: string | null;
};

/** Words before the place in a service-area sentence ("Servicing the Northern Rivers..."). */
const AREA_LEAD =
  /^(?:we\s+)?(?:service|services|servicing|serve|serves|serving|cover|covers|covering|across|throughout|around|all\s+of|based\s+in|in)\s+(?:the\s+)?/i;
/** Where a sentence moves on from its first place: a list, a range, a distance. */
const AREA_BREAK = /[,;/&()\n.]|\s-\s|\b(?:and|or|within|from|to|including|plus|up|near|surrounds|surrounding)\b/i;

/**
 * The place to search beside the business's name: the first place the service area
 * names ("Lismore, Ballina and surrounds within 50 km" is Lismore), never the whole sentence; none when
 * the area names no short place first.
 */
export function serviceAreaPlace(serviceArea: string | undefined | null): string | null {
  const first = (serviceArea ?? "").trim().replace(AREA_LEAD, "").split(AREA_BREAK)[0]!.trim();
  return first && first.length <= 40 ? first : null;
}

/** Step 5's "Find Google Business Profile": a Google Maps search for the business's name in its place. */
export function mapsSearchUrl(businessName: string, serviceArea: string | undefined | null): string | null {
  const name = businessName.trim();
  if (!name) return null;
  const query = [name, serviceAreaPlace(serviceArea)].filter(Boolean).join(" ");
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}
