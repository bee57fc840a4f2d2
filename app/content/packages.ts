/** Website packages (spec 2: packages page); prices in cents, AUD, one-time. */
export type WebsitePackage = {
  id: "starter" | "professional" | "enterprise";
  name: string;
  price: number;
  description: string;
  popular?: boolean;
  /** Revision rounds included; the dashboard, order status and admin offer at most this many. */
  revisionRounds: 1 | 2 | 3;
  /** Pages included (before the Extra Pages add-on); null: unlimited. */
  pages: number | null;
  features: string[];
  limitations: string[];
  /**
   * The add-ons offered with this package, each described for it (the catalogue's texts describe the
   * 24-Hour Website: five pages, a draft in 24 hours). One missing here is not offered with the package.
   */
  addOns: { id: string; description?: string }[];
};

export const PACKAGES: readonly WebsitePackage[] = [
  {
    id: "starter",
    name: "Starter",
    price: 99_700,
    revisionRounds: 1,
    pages: 5,
    description: "A simple, professional site to get your business online.",
    features: [
      "Up to 5 pages",
      "1 revision round",
      "48-hour delivery",
      "30-day support",
      "Mobile-responsive design",
      "Contact form",
    ],
    limitations: ["No blog", "No online store"],
    addOns: [
      { id: "priority-12hr", description: "Your first draft in 12 hours instead of 48." },
      { id: "logo-design" },
      { id: "domain-setup" },
      { id: "extra-pages", description: "Two more pages on top of the five included." },
    ],
  },
  {
    id: "professional",
    name: "Professional",
    price: 199_700,
    revisionRounds: 2,
    pages: 10,
    description: "More pages and polish for a growing business.",
    popular: true,
    features: [
      "Up to 10 pages",
      "2 revision rounds",
      "24-hour delivery",
      "60-day support",
      "Mobile-responsive design",
      "Basic SEO setup",
    ],
    limitations: ["No online store"],
    addOns: [
      { id: "priority-12hr", description: "Your first draft in 12 hours instead of 24." },
      { id: "logo-design" },
      { id: "domain-setup" },
      { id: "extra-pages", description: "Two more pages on top of the ten included." },
    ],
  },
  {
    id: "enterprise",
    name: "Enterprise",
    price: 399_700,
    revisionRounds: 3,
    pages: null,
    description: "Everything, delivered fastest, for established businesses.",
    features: [
      "Unlimited pages",
      "3 revision rounds",
      "12-hour delivery",
      "90-day support",
      "Mobile-responsive design",
      "Advanced SEO",
    ],
    limitations: [],
    // Delivered in 12 hours with unlimited pages already: priority delivery and extra pages add nothing.
    addOns: [{ id: "logo-design" }, { id: "domain-setup" }],
  },
];

export function findPackage(id: string | null | undefined): WebsitePackage | undefined {
  return PACKAGES.find((p) => p.id === id);
}

/** Revision rounds included with an order's product: a package's own number, the 24-Hour Website's 3 otherwise. */
export function revisionRoundsFor(productId: string | null | undefined): 1 | 2 | 3 {
  return findPackage(productId)?.revisionRounds ?? 3;
}

/** "With Maintenance": the package 15% off (rounded to the dollar), plus the Essentials plan each month. */
export const WITH_MAINTENANCE_DISCOUNT_PERCENT = 15;

/** A package's one-time price in cents, with or without maintenance. */
export function packagePrice(pkg: WebsitePackage, withMaintenance: boolean): number {
  if (!withMaintenance) return pkg.price;
  return Math.round((pkg.price / 100) * (1 - WITH_MAINTENANCE_DISCOUNT_PERCENT / 100)) * 100;
}

/** The packages page's comparison table: one row per feature, one value per package. */
export const PACKAGE_COMPARISON: readonly { feature: string; values: Record<WebsitePackage["id"], string> }[] = [
  { feature: "Pages", values: { starter: "Up to 5", professional: "Up to 10", enterprise: "Unlimited" } },
  { feature: "Revision rounds", values: { starter: "1", professional: "2", enterprise: "3" } },
  { feature: "Delivery", values: { starter: "48 hours", professional: "24 hours", enterprise: "12 hours" } },
  { feature: "Support after launch", values: { starter: "30 days", professional: "60 days", enterprise: "90 days" } },
  { feature: "Mobile-responsive design", values: { starter: "Yes", professional: "Yes", enterprise: "Yes" } },
  { feature: "Contact form", values: { starter: "Yes", professional: "Yes", enterprise: "Yes" } },
  { feature: "SEO setup", values: { starter: "No", professional: "Basic", enterprise: "Advanced" } },
  { feature: "Blog", values: { starter: "No", professional: "Yes", enterprise: "Yes" } },
  { feature: "Online store", values: { starter: "No", professional: "No", enterprise: "Yes" } },
];
