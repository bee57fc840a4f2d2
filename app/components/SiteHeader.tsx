import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { BUSINESS, NAV_LINKS } from "~/content/site";

/**
 * Sticky header. On small screens the menu is a checkbox toggle, so it opens and
 * closes without JavaScript; with JavaScript it also closes when a link is chosen.
 */
export function SiteHeader() {
  const toggle = useRef<HTMLInputElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (toggle.current) toggle.current.checked = false;
  }, [location.pathname]);

  return (
    <header className="site-header">
      <div className="wrap header-row">
        <Link to="/" className="logo" aria-label={`${BUSINESS.name} home`}>
          <span aria-hidden="true" className="logo-mark">
            24
          </span>{" "}
          {BUSINESS.name}
        </Link>
        <input ref={toggle} type="checkbox" id="menu-toggle" className="menu-toggle" aria-controls="site-nav" />
        <label htmlFor="menu-toggle" className="menu-button">
          Menu
        </label>
        <nav id="site-nav" className="site-nav" aria-label="Main">
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.to === "/"} prefetch="intent">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <Link to="/24-hour-website" className="button button-primary">
            Get Started
          </Link>
        </nav>
      </div>
    </header>
  );
}
