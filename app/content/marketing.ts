/** Marketing copy shared by the public pages (spec 1 sections 1 and 2). */

export type Card = { title: string; description: string };
export type ServiceCard = Card & { link: string; features: string[]; button: string };
/** A testimonial of one of the portfolio's example businesses (`example` is its slug in app/content/showcase.ts). */
export type Testimonial = { name: string; example: string; town: string; quote: string; rating: 5 };

export const BENEFITS: Card[] = [
  {
    title: "Fast Results",
    description: "Your first draft within 24 hours of receiving your details, not weeks or months.",
  },
  { title: "Honest Pricing", description: "A flat $300 for 1-5 pages. No lock-in contracts, no hidden fees." },
  {
    title: "Built to Win Customers",
    description: "Sites built to turn visitors into phone calls, bookings and paying customers.",
  },
  {
    title: "Everything Handled",
    description: "Hosting, setup, revisions and support handled for you, so you can get back to work.",
  },
];

export const SERVICES: ServiceCard[] = [
  {
    title: "24-Hour Websites",
    description: "A professional 1-5 page website for $300, with your first draft in 24 hours.",
    link: "/24-hour-website",
    button: "Get Your 24-Hour Website",
    features: [
      "1-5 pages, mobile-responsive",
      "Contact form and lead capture",
      "Basic SEO setup",
      "First month of hosting included",
      "Up to 3 rounds of revisions",
    ],
  },
  {
    title: "Multi-Page Business Sites",
    description: "Larger sites for growing businesses with more to say, quoted to fit.",
    link: "/contact",
    button: "Get a Quote",
    features: ["As many pages as you need", "Custom design", "Blog and news sections", "Advanced SEO"],
  },
  {
    title: "eCommerce Stores",
    description: "Sell online with a store your customers find easy to use, quoted to fit.",
    link: "/contact",
    button: "Talk About Your Store",
    features: ["Product catalogue and cart", "Secure payments", "Stock and order management", "Shipping options"],
  },
  {
    title: "Review Generation",
    description: "More 5-star reviews on Google and Facebook, on autopilot.",
    link: "/review-generation",
    button: "Start Getting Reviews",
    features: [
      "Automated SMS and e-mail review requests",
      "Negative feedback filtered to you privately",
      "Google and Facebook integration",
      "Monthly reports",
    ],
  },
];

/**
 * Example testimonials, one from each of the portfolio's example businesses
 * (app/content/showcase.ts, by slug): the portfolio calls them examples, so the
 * testimonials say so too, on every page that shows them. Never a real customer's
 * name or words until a real customer gives them.
 */
export const TESTIMONIALS: Testimonial[] = [
  {
    name: "Dave M.",
    example: "electrician",
    town: "Lismore",
    quote:
      "I was quoted $4,000 and 8 weeks by another agency. These guys had my site up the next day for $300, and the phone started ringing that week.",
    rating: 5,
  },
  {
    name: "Sarah K.",
    example: "dog-groomer",
    town: "Ballina",
    quote:
      "I'm not a computer person at all. I filled in the form on my phone between clients and had a beautiful website the next morning.",
    rating: 5,
  },
  {
    name: "Tom R.",
    example: "accountant",
    town: "Casino",
    quote: "Professional, quick and honest. No jargon, no lock-in, and they actually answer the phone.",
    rating: 5,
  },
];

/** What the testimonials' section says of them, wherever they are shown. */
export const TESTIMONIALS_NOTE =
  "These are examples: each one is from one of the example businesses in our portfolio, not from a real customer.";

export const STEPS: Card[] = [
  {
    title: "Submit Your Details",
    description: "Pay securely, then tell us about your business in a simple online form. It takes about 10 minutes.",
  },
  { title: "We Build", description: "We design and build your website. Your first draft arrives within 24 hours." },
  { title: "Review & Refine", description: "Tell us what to change. Up to 3 rounds of revisions are included." },
  {
    title: "Launch",
    description: "Your site goes live, with hosting for the first month included. It's yours to keep.",
  },
];

export const FAQ: { question: string; answer: string }[] = [
  {
    question: "Is it really $300?",
    answer:
      "Yes. $300 AUD covers a professional 1-5 page website, hosting for the first month and up to 3 rounds of revisions. Optional add-ons are priced up front at checkout; there are no hidden fees.",
  },
  {
    question: "How can you build it in 24 hours?",
    answer:
      "We've streamlined everything: our intake form gathers what we need in one go, and we build on proven layouts for small businesses. The 24 hours start once we've received all your details.",
  },
  {
    question: "What if you miss the 24 hours?",
    answer: "If your first draft isn't delivered within 24 hours of receiving all your details, you get a full refund.",
  },
  {
    question: "What do I need to provide?",
    answer:
      "Your business details, the services you offer, and your logo and photos if you have them. The intake form walks you through it and saves as you go.",
  },
  {
    question: "Can I ask for changes?",
    answer: "Yes. Up to 3 rounds of revisions are included, so the site ends up the way you want it.",
  },
  {
    question: "Do I own the website?",
    answer: "Yes. The website is yours. There are no lock-in contracts.",
  },
  {
    question: "What happens after the first month of hosting?",
    answer: "You can keep your site with us on an optional maintenance plan, or take it elsewhere. It's your choice.",
  },
];

export const REVIEW_BENEFITS: Card[] = [
  {
    title: "More 5-Star Reviews",
    description: "Automatic SMS and e-mail requests after every job, so happy customers actually leave a review.",
  },
  {
    title: "Protect Your Reputation",
    description: "Negative feedback comes to you privately first, so you can make it right.",
  },
  {
    title: "Win More Work",
    description: "More reviews lift you in Google search and maps, where local customers look first.",
  },
];

export const REVIEW_FEATURES = [
  "Automated SMS and e-mail review requests",
  "Private filtering of negative feedback to the owner",
  "Google and Facebook review integration",
  "Reputation dashboard",
  "Monthly reports",
  "Custom message templates",
  "Multi-location support",
] as const;

export const VALUES: Card[] = [
  {
    title: "No BS",
    description: "Straight talk, fixed prices and no lock-in contracts. What we quote is what you pay.",
  },
  { title: "We Get It", description: "We're a small business too. We know your time and money are tight." },
  {
    title: "Built to Win Customers",
    description: "A pretty website isn't enough. Ours are built to make your phone ring.",
  },
];
