/** The business's own details and the site's navigation: written once, read everywhere. */
export const BUSINESS = {
  name: "24-Hour Website",
  region: "Northern Rivers, NSW",
  phone: "0400 123 456",
  phoneHref: "tel:+61400123456",
  email: "hello@northernriverswebsites.com.au",
  facebookUrl: "https://www.facebook.com/northernriverswebsites",
  youtubeUrl: "https://www.youtube.com/@northernriverswebsites",
} as const;

/** Header links, in the spec's order (spec 1 section 2). */
export const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/services", label: "Services" },
  { to: "/packages", label: "Packages" },
  { to: "/about", label: "About" },
  { to: "/showcase", label: "Portfolio" },
  { to: "/maintenance", label: "Maintenance" },
  { to: "/contact", label: "Contact" },
  { to: "/dashboard", label: "Dashboard" },
] as const;

export const FOOTER_QUICK_LINKS = [
  { to: "/services", label: "Services" },
  { to: "/about", label: "About" },
  { to: "/showcase", label: "Portfolio" },
  { to: "/contact", label: "Contact" },
  { to: "/auth", label: "Login" },
] as const;

export const FOOTER_LEGAL_LINKS = [
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
  { to: "/facebook-disclaimer", label: "Facebook Disclaimer" },
] as const;
