import { findPackage, revisionRoundsFor } from "~/content/packages";
import { ADD_ONS, OFFER } from "~/content/offer";
import { deliveryWindowHours } from "./delivery-clock";

/**
 * What an order includes, from what was bought (its product and add-ons): the delivery window the
 * clock runs on, the revision rounds the rounds open, and the pages the intake's step 7 allows.
 * Every sentence a page or an e-mail tells the customer about a window, rounds, pages or the refund
 * guarantee is written here from it (ARCHITECTURE rule 10), so what is said is what is done.
 */

/** The add-ons that shape the build (spec 1 section 9). */
export const EXTRA_PAGES_ADD_ON_ID = "extra-pages";
export const LOGO_DESIGN_ADD_ON_ID = "logo-design";
export const DOMAIN_ADD_ON_ID = "domain-setup";
export const PRIORITY_ADD_ON_ID = "priority-12hr";
export const EXTRA_PAGES_PER_ADD_ON = 2;

/** What the pages read of an order to know what it includes. */
export type BoughtOrder = {
  product_id?: string | null;
  product_name?: string | null;
  add_ons?: readonly { id: string }[] | null;
};

export type OrderIncludes = {
  /** What was bought, as a sentence starts with it: "Your Starter package", "Your 24-Hour Website". */
  bought: string;
  windowHours: number;
  rounds: 1 | 2 | 3;
  /** Pages included with the add-ons; null: unlimited. */
  pages: number | null;
  /** Of those, the pages the Extra Pages add-on added (0 without it). */
  extraPages: number;
  logoDesign: boolean;
  domainConnection: boolean;
  priority: boolean;
};

/** Pages included: the package's (the 24-Hour Website's 5), plus 2 for the Extra Pages add-on; null: unlimited. */
export function pagesIncluded(input: { productId: string | null | undefined; addOnIds: readonly string[] }) {
  const pkg = findPackage(input.productId);
  const base = pkg ? pkg.pages : OFFER.maxPages;
  if (base === null) return null;
  return input.addOnIds.includes(EXTRA_PAGES_ADD_ON_ID) ? base + EXTRA_PAGES_PER_ADD_ON : base;
}

export function orderIncludes(order: BoughtOrder): OrderIncludes {
  const productId = order.product_id ?? null;
  const addOnIds = (order.add_ons ?? []).map((a) => a.id);
  const pkg = findPackage(productId);
  const pages = pagesIncluded({ productId, addOnIds });
  return {
    bought: pkg ? `Your ${pkg.name} package` : `Your ${order.product_name || OFFER.name}`,
    windowHours: deliveryWindowHours({ productId, addOnIds }),
    rounds: revisionRoundsFor(productId),
    pages,
    extraPages: pages !== null && addOnIds.includes(EXTRA_PAGES_ADD_ON_ID) ? EXTRA_PAGES_PER_ADD_ON : 0,
    logoDesign: addOnIds.includes(LOGO_DESIGN_ADD_ON_ID),
    domainConnection: addOnIds.includes(DOMAIN_ADD_ON_ID),
    priority: addOnIds.includes(PRIORITY_ADD_ON_ID),
  };
}

const addOnName = (id: string) => ADD_ONS.find((a) => a.id === id)?.name ?? id;

/**
 * What shapes the build, for the AI prompt: the pages (the package's plus extra pages), logo
 * design, domain connection and priority, each said whether bought or not, so nothing bought goes unbuilt.
 */
export function buildShape(i: OrderIncludes): string[] {
  const pages =
    i.pages === null
      ? "unlimited"
      : i.extraPages
        ? `up to ${i.pages} (${i.pages - i.extraPages} with the package plus ${i.extraPages} from ${addOnName(EXTRA_PAGES_ADD_ON_ID)})`
        : `up to ${i.pages}`;
  return [
    `Pages: ${pages}`,
    i.logoDesign
      ? `Logo design: wanted (${addOnName(LOGO_DESIGN_ADD_ON_ID)} bought): we design the logo; leave room for it in the header`
      : "Logo design: not bought",
    i.domainConnection
      ? `Domain connection: wanted (${addOnName(DOMAIN_ADD_ON_ID)} bought): we connect the customer's domain to the site`
      : "Domain connection: not bought (the customer connects their own domain)",
    i.priority
      ? `Priority: yes (${addOnName(PRIORITY_ADD_ON_ID)} bought): the first draft is due within ${i.windowHours} hours`
      : `Priority: no: the first draft is due within ${i.windowHours} hours`,
  ];
}

/** The sentences the customer reads, each from what the order includes. */
export const promise = {
  /** "Our 48-Hour Guarantee" */
  guaranteeTitle: (i: OrderIncludes) => `Our ${i.windowHours}-Hour Guarantee`,
  guarantee: (i: OrderIncludes) =>
    `Your first draft within ${i.windowHours} hours of receiving all your details, or a full refund.`,
  /** "First draft within 48 hours" */
  draftStep: (i: OrderIncludes) => `First draft within ${i.windowHours} hours`,
  draftArrives: (i: OrderIncludes) =>
    `Your first draft arrives within ${i.windowHours} hours of receiving your details, or you get a full refund.`,
  /** "1 round of revisions", "up to 3 rounds of revisions" */
  rounds: (i: OrderIncludes) => (i.rounds === 1 ? "1 round of revisions" : `up to ${i.rounds} rounds of revisions`),
  /** "up to 7 pages", "unlimited pages" */
  pages: (i: OrderIncludes) => (i.pages === null ? "unlimited pages" : `up to ${i.pages} pages`),
  /** The order card's line (dashboard, order status). */
  included: (i: OrderIncludes) =>
    `Included: your first draft within ${i.windowHours} hours of receiving your details (or a full refund), ${promise.rounds(i)} and ${promise.pages(i)}.`,
  /** Step 11's banner: "Your Starter package is paid for." */
  paidFor: (i: OrderIncludes) => `${i.bought} is paid for.`,
};

/** Step 7: how many pages the order includes, and the refusal of more. */
export const PAGES_MESSAGES = {
  included: (pages: number) => `Your order includes up to ${pages} pages.`,
  tooMany: (pages: number) =>
    `Your order includes up to ${pages} pages. For more, add the 2 Extra Pages add-on to a later order, or ask us for a quote at /contact.`,
};

/** Step 7's refusal when more pages are ticked than the order includes; null when they fit. */
export function tooManyPages(ticked: readonly string[] | null | undefined, pages: number | null): string | null {
  if (pages === null || (ticked?.length ?? 0) <= pages) return null;
  return PAGES_MESSAGES.tooMany(pages);
}
