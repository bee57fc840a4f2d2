import { Link } from "@remix-run/react";
import { SHOWCASE, type ShowcaseExample } from "~/content/showcase";

/** Small line icons for the mock-ups, drawn on a 24-unit grid. */
const ICONS: Record<ShowcaseExample["icon"], string> = {
  paw: "M12 13c-3 0-6 3.2-6 5.6 0 1.6 1.3 2.4 3 2.4 1.3 0 2-.6 3-.6s1.7.6 3 .6c1.7 0 3-.8 3-2.4C18 16.2 15 13 12 13zM3.5 10a2 2.5 0 1 0 4 0 2 2.5 0 1 0-4 0M7 5a2 2.5 0 1 0 4 0 2 2.5 0 1 0-4 0M13 5a2 2.5 0 1 0 4 0 2 2.5 0 1 0-4 0M16.5 10a2 2.5 0 1 0 4 0 2 2.5 0 1 0-4 0",
  bolt: "M13.5 2 4 14h6.5L9 22l10-13h-6.8z",
  chart: "M3 21h18v-1.5H3zM5 18h3v-6H5zM10.5 18h3V8h-3zM16 18h3V4h-3z",
  spark: "M12 2l2.4 7.3H22l-6.2 4.5 2.4 7.2-6.2-4.5L5.8 21l2.4-7.2L2 9.3h7.6z",
};

/**
 * A sketch of an example site's home page in a browser window: inline SVG of
 * about 1 KB, so the portfolio shows each design without a photo on the
 * critical path. Colours are presentation attributes, which the CSP allows.
 */
export function SiteMockup({ example, className }: { example: ShowcaseExample; className?: string }) {
  const { brand, accent, paper } = example.colours;
  const dark = example.theme === "bold";
  const text = dark ? "#f6f6f3" : "#1f2a24";
  return (
    <svg
      viewBox="0 0 320 200"
      className={className}
      role="img"
      aria-label={`Sketch of the ${example.name} home page`}
      focusable="false"
    >
      <rect width="320" height="200" rx="10" fill="#e6e9e6" />
      <circle cx="14" cy="11" r="3" fill="#e06c5f" />
      <circle cx="24" cy="11" r="3" fill="#e5b94e" />
      <circle cx="34" cy="11" r="3" fill="#6cbf6a" />
      <rect x="46" y="6" width="200" height="10" rx="5" fill="#fff" />
      <rect x="4" y="22" width="312" height="174" rx="4" fill={dark ? brand : paper} />
      <rect x="4" y="22" width="312" height="22" fill={dark ? "#000" : brand} />
      <text
        x="14"
        y="37"
        fontSize="10"
        fontWeight="700"
        fill={dark ? accent : "#fff"}
        fontFamily="system-ui,sans-serif"
      >
        {example.name}
      </text>
      <rect x="262" y="28" width="46" height="11" rx="5.5" fill={accent} />
      <rect x="16" y="60" width="150" height="9" rx="3" fill={text} />
      <rect x="16" y="74" width="120" height="9" rx="3" fill={text} />
      <rect x="16" y="92" width="140" height="5" rx="2.5" fill={text} opacity=".45" />
      <rect x="16" y="101" width="110" height="5" rx="2.5" fill={text} opacity=".45" />
      <rect x="16" y="116" width="70" height="16" rx="8" fill={accent} />
      <circle cx="250" cy="95" r="42" fill={accent} opacity={dark ? 1 : 0.25} />
      <path d={ICONS[example.icon]} transform="translate(220 65) scale(2.5)" fill={brand} />
      {[16, 116, 216].map((x) => (
        <g key={x}>
          <rect
            x={x}
            y="148"
            width="88"
            height="38"
            rx="5"
            fill={dark ? "#23272f" : "#fff"}
            stroke={dark ? "#3a3f49" : "#dde2dd"}
          />
          <rect x={x + 8} y="157" width="44" height="5" rx="2.5" fill={dark ? accent : brand} />
          <rect x={x + 8} y="167" width="66" height="4" rx="2" fill={text} opacity=".35" />
          <rect x={x + 8} y="175" width="52" height="4" rx="2" fill={text} opacity=".35" />
        </g>
      ))}
    </svg>
  );
}

/** The portfolio's example sites as cards, each its sketch and a link to its demo (/showcase and the home page). */
export function ShowcaseCards() {
  return (
    <ul className="grid card-list showcase-list">
      {SHOWCASE.map((e) => (
        <li key={e.slug} className="card showcase-card">
          <SiteMockup example={e} className="mockup" />
          <p className="eyebrow">{e.category}</p>
          <h3>{e.name}</h3>
          <p>{e.description}</p>
          <Link to={`/showcase/${e.slug}`} className="button">
            View the {e.name} demo
          </Link>
        </li>
      ))}
    </ul>
  );
}
