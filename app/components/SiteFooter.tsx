import { Link } from "@remix-run/react";
import { BUSINESS, FOOTER_LEGAL_LINKS, FOOTER_QUICK_LINKS } from "~/content/site";
import { ContactLinks } from "./ContactLinks";

export function SiteFooter({ year }: { year: number }) {
  return (
    <footer className="site-footer">
      <div className="wrap footer-grid">
        <div>
          <p className="footer-title">{BUSINESS.name}</p>
          <p>Fast, affordable websites for small businesses in the {BUSINESS.region} and across Australia.</p>
        </div>
        <nav aria-label="Quick links">
          <p className="footer-title">Quick links</p>
          <ul>
            {FOOTER_QUICK_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to}>{l.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label="Legal">
          <p className="footer-title">Legal</p>
          <ul>
            {FOOTER_LEGAL_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to}>{l.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <p className="footer-title">Get in touch</p>
          <ul>
            <ContactLinks />
          </ul>
        </div>
      </div>
      <p className="wrap copyright">
        © {year} {BUSINESS.name}. All rights reserved.
      </p>
    </footer>
  );
}
