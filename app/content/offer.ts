/**
 * The 24-Hour Website offer: prices, add-ons and the claims made about it
 * (spec 1 sections 1 and 9). Every page and the checkout read these; nothing
 * else writes a price.
 */
export const BASE_PRICE_CENTS = 30_000;

export const OFFER = {
  name: "24-Hour Website",
  price: "$300",
  pages: "1-5 pages",
  /** The most pages the $300 includes (spec 1 section 9: 1-5 pages). */
  maxPages: 5,
  /** The pages before "website": "a 1-5 page website", never "1-5 pages website". */
  pagesBefore: "1-5 page",
  elsewhere: "$3,000+",
  industryAverage: "$1000+",
  draftHours: 24,
  revisionRounds: 3,
  spots: "Limited daily spots available",
  guarantee: "First draft within 24 hours or a full refund",
  noLockIn: "No lock-in contracts or hidden fees",
  demoMinutes: 15,
} as const;

export type AddOn = {
  id: string;
  name: string;
  /** Its name in a list row or a CSV cell, where the full name does not fit. */
  short: string;
  price: number;
  description: string;
  popular?: boolean;
};

/** Prices in cents. */
export const ADD_ONS: readonly AddOn[] = [
  {
    id: "priority-12hr",
    short: "Priority",
    name: "Priority 12-Hour Delivery",
    price: 20_000,
    description: "Your first draft in 12 hours instead of 24.",
    popular: true,
  },
  {
    id: "logo-design",
    short: "Logo",
    name: "Professional Logo Design",
    price: 15_000,
    description: "A simple, professional logo designed for your business.",
  },
  {
    id: "domain-setup",
    short: "Domain",
    name: "Domain Connection Service",
    price: 5_000,
    description: "We connect your domain name to your new website.",
  },
  {
    id: "extra-pages",
    short: "+2 Pages",
    name: "2 Extra Pages",
    price: 10_000,
    description: "Two more pages on top of the five included.",
  },
];

/** What the $300 includes. */
export const INCLUDED = [
  `${OFFER.pagesBefore} professional website`,
  "Mobile-responsive design",
  "Contact form and lead capture",
  "Basic SEO setup",
  "First month of hosting included",
  "Up to 3 rounds of revisions",
  "You own your website",
] as const;
