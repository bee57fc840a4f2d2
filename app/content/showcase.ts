/**
 * The portfolio's example businesses (spec 1: showcase). Each is a small demo
 * site: believable copy a real owner could have given us on the intake form,
 * and a colour theme (classes in app.css) its mock-up and demo page are drawn in.
 * Phone numbers are from ACMA's fictitious range (02 5550 xxxx), so nobody rings
 * a real business.
 */
export type DemoService = { name: string; description: string; price?: string };

export type ShowcaseExample = {
  slug: string;
  name: string;
  category: string;
  /** One line for the portfolio card: what kind of site it is. */
  description: string;
  /** The demo site's own words. */
  tagline: string;
  headline: string;
  about: string;
  services: DemoService[];
  trust: string[];
  testimonial: { quote: string; author: string };
  area: string;
  hours: string;
  phone: string;
  cta: string;
  /** Theme class suffix (app.css `.theme-*`) and the mock-up's icon. */
  theme: "playful" | "bold" | "calm" | "plain";
  icon: "paw" | "bolt" | "chart" | "spark";
  /** The colours of the theme, for the inline SVG mock-up (presentation attributes, allowed by the CSP). */
  colours: { brand: string; accent: string; paper: string };
};

export const SHOWCASE: ShowcaseExample[] = [
  {
    slug: "dog-groomer",
    name: "Pampered Paws Grooming",
    category: "Pet Services",
    description: "A friendly, colourful site for a mobile dog groomer: prices up front and a big Book a Groom button.",
    tagline: "Happy dogs, clean dogs, right at your door.",
    headline: "Mobile dog grooming in Ballina and the Northern Rivers",
    about:
      "Hi, I'm Sarah. Pampered Paws is a fully equipped grooming van that comes to your driveway, so your dog skips the car trip and the noisy salon. Every groom is one-on-one, with gentle handling for nervous and older dogs, and natural shampoos for sensitive skin.",
    services: [
      {
        name: "Full Groom",
        description: "Bath, blow-dry, clip or hand-scissor to your chosen style, nails and ears.",
        price: "From $85",
      },
      {
        name: "Wash & Dry",
        description: "A deep-clean bath and blow-dry with brush-out, for dogs between clips.",
        price: "From $55",
      },
      {
        name: "Nail Clipping",
        description: "Quick, calm nail trim and file. Added free to any full groom.",
        price: "$20",
      },
      {
        name: "Puppy's First Groom",
        description: "A short, gentle first visit so grooming starts as something fun.",
        price: "$45",
      },
    ],
    trust: ["Comes to you", "Certificate III in Companion Animal Services", "Calm, one-on-one grooms"],
    testimonial: {
      quote: "Our old kelpie used to shake at the salon. Now he waits at the gate for Sarah's van.",
      author: "Jenny, Lennox Head",
    },
    area: "Ballina, Lennox Head, Alstonville and Wollongbar",
    hours: "Tuesday to Saturday, 8am to 4pm",
    phone: "(02) 5550 1847",
    cta: "Book a Groom",
    theme: "playful",
    icon: "paw",
    colours: { brand: "#6d2e91", accent: "#ffb703", paper: "#fff8f0" },
  },
  {
    slug: "electrician",
    name: "Bright Spark Electrical",
    category: "Trades",
    description: "A bold, no-nonsense site for a local electrician that turns visitors into phone calls.",
    tagline: "Licensed local electricians, on time, every time.",
    headline: "Switchboards, lighting and emergency call-outs across Lismore",
    about:
      "Bright Spark is a family-run team of four licensed electricians based in Lismore. We turn up when we say we will, quote before we start, and leave the site cleaner than we found it. Homes, farms, shops and strata: if it runs on power, we look after it.",
    services: [
      {
        name: "Switchboard Upgrades",
        description: "Old ceramic fuses out, modern safety switches in. Most homes done in a day.",
      },
      {
        name: "Lighting & Power",
        description: "New power points, LED downlights, outdoor and garden lighting, ceiling fans.",
      },
      { name: "Safety Inspections", description: "Written reports for landlords, buyers and insurers, with photos." },
      {
        name: "Emergency Call-Outs",
        description: "No power, burning smell or storm damage: a real person answers, day or night.",
      },
    ],
    trust: ["Licensed and fully insured", "Upfront fixed quotes", "Lifetime workmanship guarantee"],
    testimonial: {
      quote: "Called at 7am with no power, they were here by 9 and had us running by lunch.",
      author: "Mark, Goonellabah",
    },
    area: "Lismore, Casino, Kyogle and the villages in between",
    hours: "Monday to Friday, 7am to 5pm; emergencies 24/7",
    phone: "(02) 5550 2931",
    cta: "Call for a Free Quote",
    theme: "bold",
    icon: "bolt",
    colours: { brand: "#14171f", accent: "#facc15", paper: "#f6f6f3" },
  },
  {
    slug: "accountant",
    name: "Riverside Accounting",
    category: "Professional Services",
    description: "A calm, professional site for a small accounting practice that builds trust before the first call.",
    tagline: "Plain-English accounting for small business.",
    headline: "Tax, BAS and bookkeeping for Casino's small businesses",
    about:
      "Riverside Accounting is a two-person practice on Walker Street. We look after sole traders, farms and small companies, agree our fees before we start, and explain your numbers in words you can use. Most of our clients came from a friend who said: just ring Tom.",
    services: [
      {
        name: "Tax Returns",
        description: "Individual, sole trader, partnership and company returns, lodged on time.",
        price: "From $180",
      },
      {
        name: "BAS & GST",
        description: "Quarterly or monthly BAS prepared, checked and lodged for you.",
        price: "From $120 a quarter",
      },
      { name: "Bookkeeping", description: "Xero or MYOB kept up to date, so tax time is no surprise." },
      { name: "Business Advice", description: "Cash flow, structures and planning for the year ahead, over a cuppa." },
    ],
    trust: ["Registered tax agent", "Fixed fees agreed up front", "Xero and MYOB certified"],
    testimonial: {
      quote: "Tom explained our cash flow in ten minutes better than anyone had in ten years.",
      author: "Lisa, Casino",
    },
    area: "Casino and the Richmond Valley, and online Australia-wide",
    hours: "Monday to Friday, 8:30am to 5pm",
    phone: "(02) 5550 7304",
    cta: "Book a Free 20-Minute Chat",
    theme: "calm",
    icon: "chart",
    colours: { brand: "#1d4a72", accent: "#2b7a7c", paper: "#f4f8fb" },
  },
];

/** Shown for a slug we don't know, so a shared link never dead-ends. */
export const GENERIC_EXAMPLE: ShowcaseExample = {
  slug: "example",
  name: "Your Business Name",
  category: "Small Business",
  description: "An example small-business website.",
  tagline: "A website that works as hard as you do.",
  headline: "What you do, where you do it, and why people choose you",
  about:
    "This is the kind of website we build for small businesses: your story in your words, your services with their prices if you like, and one clear way to get in touch, on every screen size.",
  services: [
    { name: "Your Main Service", description: "What it is, who it is for, and what the customer gets." },
    { name: "Your Second Service", description: "A sentence or two, in your customers' words." },
    { name: "Packages & Prices", description: "Show prices, or invite people to ask for a quote." },
    { name: "Get in Touch", description: "Call, e-mail or a short form that reaches your inbox." },
  ],
  trust: ["Local and owner-operated", "Clear prices", "Fast replies"],
  testimonial: { quote: "The kind words a happy customer said about you go here.", author: "A happy customer" },
  area: "Your town and surrounds",
  hours: "Your opening hours",
  phone: "(02) 5550 0000",
  cta: "Get in Touch",
  theme: "plain",
  icon: "spark",
  colours: { brand: "#0b5d3b", accent: "#f2b705", paper: "#fbfaf7" },
};

export function findExample(slug: string | undefined): ShowcaseExample {
  return SHOWCASE.find((e) => e.slug === slug) ?? GENERIC_EXAMPLE;
}
