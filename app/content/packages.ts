/** Website packages (spec 2: packages page); prices in cents, AUD, one-time. */
export type WebsitePackage = {
  id: "starter" | "professional" | "enterprise";
  name: string;
  price: number;
  description: string;
  popular?: boolean;
  /** Revision rounds included; the dashboard, order status and admin offer at most this many. */
  revisionRounds: 1 | 2 | 3;
  features: string[];
  limitations: string[];
};

export const PACKAGES: readonly WebsitePackage[] = [
  {
    id: "starter",
    name: "Starter",
    price: 99_700,
    revisionRounds: 1,
    description: "A simple, professional site to get your business online.",
    features: ["Up to 5 pages", "1 revision round", "48-hour delivery", "30-day support", "Mobile-responsive design", "Contact form"],
    limitations: ["No blog", "No online store"],
  },
  {
    id: "professional",
    name: "Professional",
    price: 199_700,
    revisionRounds: 2,
    description: "More pages and polish for a growing business.",
    popular: true,
    features: ["Up to 10 pages", "2 revision rounds", "24-hour delivery", "60-day support", "Mobile-responsive design", "Basic SEO setup"],
    limitations: ["No online store"],
  },
  {
    id: "enterprise",
    name: "Enterprise",
    price: 399_700,
    revisionRounds: 3,
    description: "Everything, delivered fastest, for established businesses.",
    features: ["Unlimited pages", "3 revision rounds", "12-hour delivery", "90-day support", "Mobile-responsive design", "Advanced SEO"],
    limitations: [],
  },
];

export function findPackage(id: string | null | undefined): WebsitePackage | undefined {
  return PACKAGES.find((p) => p.id === id);
}

/** Revision rounds included with an order's product: a package's own number, the 24-Hour Website's 3 otherwise. */
export function revisionRoundsFor(productId: string | null | undefined): 1 | 2 | 3 {
  return findPackage(productId)?.revisionRounds ?? 3;
}
