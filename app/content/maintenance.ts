/**
 * Monthly maintenance plans (spec 2 sections 3 and 9): prices in cents, AUD a
 * month. Each plan's Stripe price id comes from configuration (STRIPE_PRICE_*);
 * the product id names the plan in our records and in the offline test checkout.
 */
export type MaintenancePlan = {
  id: "essentials" | "professional" | "enterprise";
  name: string;
  price: number;
  productId: string;
  popular?: boolean;
  features: string[];
};

export const MAINTENANCE_PLANS: readonly MaintenancePlan[] = [
  {
    id: "essentials",
    name: "Essentials",
    price: 4_900,
    productId: "maintenance-essentials",
    features: [
      "Security and software updates",
      "Daily backups",
      "Uptime monitoring",
      "Up to 30 minutes of changes a month",
      "E-mail support",
    ],
  },
  {
    id: "professional",
    name: "Professional",
    price: 14_900,
    productId: "maintenance-professional",
    popular: true,
    features: [
      "Everything in Essentials",
      "Up to 2 hours of changes a month",
      "Monthly performance and SEO report",
      "Google Business profile updates",
      "Priority phone support",
    ],
  },
  {
    id: "enterprise",
    name: "Enterprise",
    price: 29_900,
    productId: "maintenance-enterprise",
    features: [
      "Everything in Professional",
      "Up to 5 hours of changes a month",
      "New landing page every quarter",
      "Conversion tracking and reporting",
      "Same-day support",
    ],
  },
];

export const MAINTENANCE_GUARANTEE = "All plans include a 30-day money-back guarantee";

export function findPlan(id: string | null | undefined): MaintenancePlan | undefined {
  return MAINTENANCE_PLANS.find((p) => p.id === id);
}

/** The plan that comes with a package bought "With Maintenance". */
export const PACKAGE_MAINTENANCE_PLAN: MaintenancePlan = MAINTENANCE_PLANS[0];
