import { ADD_ONS, type AddOn, BASE_PRICE_CENTS, INCLUDED, OFFER } from "~/content/offer";
import { PACKAGE_MAINTENANCE_PLAN } from "~/content/maintenance";
import { findPackage, packagePrice } from "~/content/packages";

/** What a coupon does to a price: the terms checkout reads (spec 1 section 3). */
export type CouponTerms = { code: string; discount_type: "percentage" | "fixed"; discount_value: number };

/**
 * The product being bought: the 24-Hour Website, or a package chosen on /packages,
 * with what it includes and the price it is compared with (the 24-Hour Website's
 * "industry average"; a package has none).
 */
export type Product = {
  id: string;
  name: string;
  price: number;
  includes: readonly string[];
  compareAt: string | null;
};

export const DEFAULT_PRODUCT: Product = {
  id: "24-hour-website",
  name: OFFER.name,
  price: BASE_PRICE_CENTS,
  includes: INCLUDED,
  compareAt: OFFER.industryAverage,
};

/** The product bought; a package "With Maintenance" costs 15% less (the plan is billed on top). */
export function productFor(packageId: string | null | undefined, withMaintenance = false): Product {
  const pkg = findPackage(packageId);
  if (!pkg) return DEFAULT_PRODUCT;
  return {
    id: pkg.id,
    name: `${pkg.name} Website Package`,
    price: packagePrice(pkg, withMaintenance),
    includes: pkg.features,
    compareAt: null,
  };
}

/** The first month of the maintenance plan that comes with a package bought "With Maintenance". */
export type MaintenanceLine = { planId: string; name: string; price: number };

/** The add-ons offered with a package (or the 24-Hour Website without one), each with that package's text. */
export function offeredAddOns(packageId?: string | null): AddOn[] {
  const pkg = findPackage(packageId);
  if (!pkg) return [...ADD_ONS];
  return ADD_ONS.flatMap((a) => {
    const offer = pkg.addOns.find((o) => o.id === a.id);
    return offer ? [{ ...a, description: offer.description ?? a.description }] : [];
  });
}

/** Offered add-ons among `ids`, once each, in catalogue order; unknown or not offered ids are ignored. */
export function addOnsFor(ids: readonly string[], packageId?: string | null): AddOn[] {
  return offeredAddOns(packageId).filter((a) => ids.includes(a.id));
}

export type Quote = {
  product: Product;
  addOns: AddOn[];
  subtotal: number;
  coupon: CouponTerms | null;
  discount: number;
  /** The plan's first month, charged with the package (then monthly); never discounted by a coupon. */
  maintenance: MaintenanceLine | null;
  total: number;
};

/**
 * The price of an order in cents. A percentage coupon applies to the base plus
 * add-ons (rounded to the cent); a fixed one is in cents; the total never goes below 0.
 */
export function quote(input: {
  packageId?: string | null;
  addOnIds: readonly string[];
  coupon?: CouponTerms | null;
  withMaintenance?: boolean;
}): Quote {
  const withMaintenance = Boolean(input.withMaintenance && findPackage(input.packageId));
  const product = productFor(input.packageId, withMaintenance);
  const plan = PACKAGE_MAINTENANCE_PLAN;
  const maintenance = withMaintenance
    ? { planId: plan.id, name: `${plan.name} maintenance, first month`, price: plan.price }
    : null;
  const addOns = addOnsFor(input.addOnIds, input.packageId);
  const subtotal = product.price + addOns.reduce((sum, a) => sum + a.price, 0);
  const coupon = input.coupon ?? null;
  let discount = 0;
  if (coupon?.discount_type === "percentage")
    discount = Math.round((subtotal * Math.min(Math.max(coupon.discount_value, 0), 100)) / 100);
  if (coupon?.discount_type === "fixed") discount = Math.max(0, Math.round(coupon.discount_value));
  discount = Math.min(discount, subtotal);
  return {
    product,
    addOns,
    subtotal,
    coupon,
    discount,
    maintenance,
    total: subtotal - discount + (maintenance?.price ?? 0),
  };
}

/** A stored coupon, as the rules below read it. */
export type CouponRecord = CouponTerms & {
  active: boolean;
  valid_until: Date | null;
  max_uses: number | null;
  allowed_emails: string[];
  allowed_domains: string[];
};

/** The empty code's message: the one coupon message the browser checks itself (its own constant, so the rest stay server-side). */
export const EMPTY_COUPON_MESSAGE = "Invalid Coupon: Please enter a coupon code";

/** Every coupon failure has one title, 'Invalid Coupon', as the empty code's message does (spec 1 sections 5 and 8). */
export const COUPON_MESSAGES = {
  empty: EMPTY_COUPON_MESSAGE,
  notValid: "Invalid Coupon: This coupon code is not valid",
  inactive: "Invalid Coupon: This coupon is no longer active",
  expired: "Invalid Coupon: This coupon has expired",
  usedUp: "Invalid Coupon: This coupon has reached its usage limit",
  needEmail: "Invalid Coupon: Please enter your email address first: this coupon is for specific customers",
  wrongEmail: "Invalid Coupon: This coupon is not valid for your email address",
  applied: "Coupon Applied!",
} as const;

export type CouponBadge = "Active" | "Expired" | "Used up" | "Inactive";

/**
 * The admin list's badge, from the very rule checkout applies (couponProblem): a coupon checkout would
 * refuse as inactive, expired or used up is badged so; one restricted to some e-mails is still Active.
 */
export function couponBadge(
  coupon: Pick<CouponRecord, "active" | "valid_until" | "max_uses">,
  input: { now: Date; timesUsed: number },
): CouponBadge {
  const problem = couponProblem(
    { ...coupon, code: "", discount_type: "fixed", discount_value: 0, allowed_emails: [], allowed_domains: [] },
    { now: input.now, timesUsed: input.timesUsed },
  );
  if (problem === COUPON_MESSAGES.inactive) return "Inactive";
  if (problem === COUPON_MESSAGES.expired) return "Expired";
  if (problem === COUPON_MESSAGES.usedUp) return "Used up";
  return "Active";
}

/** Codes are compared uppercased and trimmed. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Whether a coupon is only for some e-mail addresses or domains. */
export const isRestrictedCoupon = (coupon: Pick<CouponRecord, "allowed_emails" | "allowed_domains">) =>
  coupon.allowed_emails.some((e) => e.trim()) || coupon.allowed_domains.some((d) => d.trim());

/**
 * Whether the buyer proved the address a restricted coupon was checked against: only a signed-in
 * account that confirmed that very address does. Without the proof the order still goes ahead, but its links go
 * only to that address by e-mail: typing someone's address gets the discount for them, never their links.
 */
export const provedAddress = (email: string, user: { email: string; emailVerified: boolean } | null | undefined) =>
  Boolean(user?.emailVerified && user.email.trim().toLowerCase() === email.trim().toLowerCase());

/**
 * Whether `coupon` may be used now by `email`, with `timesUsed` uses taken.
 * Returns null when it may, or the message that says why not.
 */
export function couponProblem(
  coupon: CouponRecord | null,
  input: { email?: string | null; now: Date; timesUsed: number },
): string | null {
  if (!coupon) return COUPON_MESSAGES.notValid;
  if (!coupon.active) return COUPON_MESSAGES.inactive;
  if (coupon.valid_until && coupon.valid_until.getTime() < input.now.getTime()) return COUPON_MESSAGES.expired;
  if (coupon.max_uses != null && input.timesUsed >= coupon.max_uses) return COUPON_MESSAGES.usedUp;
  const emails = coupon.allowed_emails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  const domains = coupon.allowed_domains.map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean);
  if (isRestrictedCoupon(coupon)) {
    const email = input.email?.trim().toLowerCase();
    if (!email) return COUPON_MESSAGES.needEmail;
    const domain = email.split("@")[1] ?? "";
    if (!emails.includes(email) && !domains.includes(domain)) return COUPON_MESSAGES.wrongEmail;
  }
  return null;
}
