/** The portfolio's example businesses (spec 1: showcase). */
export type ShowcaseExample = {
  slug: string;
  name: string;
  category: string;
  description: string;
  tagline: string;
  about: string;
  services: string[];
};

export const SHOWCASE: ShowcaseExample[] = [
  {
    slug: "dog-groomer",
    name: "Pampered Paws Grooming",
    category: "Pet Services",
    description: "A friendly, colourful site for a mobile dog groomer, with online booking requests.",
    tagline: "Happy dogs, clean dogs, right at your door.",
    about: "Mobile dog grooming across the Northern Rivers. We come to you with a fully equipped van, so your dog stays calm and you stay home.",
    services: ["Full Groom", "Wash & Dry", "Nail Clipping", "Puppy's First Groom"],
  },
  {
    slug: "electrician",
    name: "Bright Spark Electrical",
    category: "Trades",
    description: "A bold, no-nonsense site for a local electrician that turns visitors into phone calls.",
    tagline: "Licensed local electricians, on time, every time.",
    about: "Residential and commercial electrical work from a licensed local team. Upfront quotes, tidy work and a lifetime workmanship guarantee.",
    services: ["Switchboard Upgrades", "Lighting & Power", "Safety Inspections", "Emergency Call-Outs"],
  },
  {
    slug: "accountant",
    name: "Riverside Accounting",
    category: "Professional Services",
    description: "A calm, professional site for a small accounting practice that builds trust fast.",
    tagline: "Plain-English accounting for small business.",
    about: "Tax, BAS and bookkeeping for sole traders and small businesses. Fixed fees agreed up front, and advice you can understand.",
    services: ["Tax Returns", "BAS & GST", "Bookkeeping", "Business Advice"],
  },
];

/** Shown for a slug we don't know, so a shared link never dead-ends. */
export const GENERIC_EXAMPLE: ShowcaseExample = {
  slug: "example",
  name: "Your Business Name",
  category: "Small Business",
  description: "An example small-business website.",
  tagline: "A website that works as hard as you do.",
  about: "This is an example of the kind of website we build for small businesses: clear, fast and built to turn visitors into customers.",
  services: ["Service One", "Service Two", "Service Three", "Service Four"],
};

export function findExample(slug: string | undefined): ShowcaseExample {
  return SHOWCASE.find((e) => e.slug === slug) ?? GENERIC_EXAMPLE;
}
