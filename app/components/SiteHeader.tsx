import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { BUSINESS, NAV_LINKS } from "~/content/site";

/**
 * Sticky header. On small screens the menu opens from a `<details>` disclosure: it
 * works with no script at all (most pages ship none), and its summary is announced
 * as a button that says whether the menu is expanded or collapsed. The disclosure
 * holds only its button; the one navigation follows it and is shown while it is open.
 * With JavaScript the menu also closes when a link is chosen (the header stays mounted).
 */
export function SiteHeader() {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
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
        <details ref={menu} className="menu">
          <summary className="menu-button" aria-controls="site-nav">
            Menu
          </summary>
        </details>
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
