import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { TESTIMONIALS, TESTIMONIALS_NOTE, type Card } from "~/content/marketing";
import { findExample } from "~/content/showcase";

/** A titled section of the page. */
export function Section({
  title,
  id,
  lead,
  children,
  tone,
}: {
  title: string;
  id?: string;
  lead?: string;
  children: ReactNode;
  tone?: "alt";
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-heading`;
  return (
    <section id={id} className={`section${tone === "alt" ? " section-alt" : ""}`} aria-labelledby={headingId}>
      <div className="wrap">
        <h2 id={headingId}>{title}</h2>
        {lead ? <p className="lead">{lead}</p> : null}
        {children}
      </div>
    </section>
  );
}

export function CardGrid({ cards, numbered }: { cards: Card[]; numbered?: boolean }) {
  const List = numbered ? "ol" : "ul";
  return (
    <List className="grid card-list">
      {cards.map((c) => (
        <li key={c.title} className="card">
          <h3>{c.title}</h3>
          <p>{c.description}</p>
        </li>
      ))}
    </List>
  );
}

export function Stars({ rating }: { rating: number }) {
  return (
    <p className="stars">
      <span role="img" aria-label={`Rated ${rating} out of 5`}>
        {"★".repeat(rating)}
      </span>
    </p>
  );
}

/** The example testimonials (app/content/marketing.ts), said to be examples, each naming its example site. */
export function TestimonialsSection({ tone }: { tone?: "alt" }) {
  return (
    <Section title="Example Testimonials" lead={TESTIMONIALS_NOTE} tone={tone}>
      <ul className="grid card-list">
        {TESTIMONIALS.map((t) => {
          const example = findExample(t.example);
          return (
            <li key={t.name} className="card">
              <figure className="quote">
                <Stars rating={t.rating} />
                <blockquote>
                  <p>“{t.quote}”</p>
                </blockquote>
                <figcaption>
                  <strong>{t.name}</strong>, <Link to={`/showcase/${example.slug}`}>{example.name}</Link>, {t.town}{" "}
                  <span className="hint">(an example business)</span>
                </figcaption>
              </figure>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

export function Checklist({ items }: { items: readonly string[] }) {
  return (
    <ul className="checklist">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

export function Faq({ items }: { items: { question: string; answer: string }[] }) {
  return (
    <div className="faq">
      {items.map((q) => (
        <details key={q.question}>
          <summary>{q.question}</summary>
          <p>{q.answer}</p>
        </details>
      ))}
    </div>
  );
}

/** A closing call to action: a heading, a line and one or two buttons. */
export function CallToAction({
  title,
  text,
  primary,
  secondary,
  id,
}: {
  title: string;
  text: string;
  primary: { to: string; label: string };
  secondary?: { to: string; label: string };
  id?: string;
}) {
  return (
    <section className="cta" id={id} aria-labelledby={`${id ?? "cta"}-heading`}>
      <div className="wrap">
        <h2 id={`${id ?? "cta"}-heading`}>{title}</h2>
        <p className="lead">{text}</p>
        <div className="actions">
          <Link to={primary.to} className="button button-primary">
            {primary.label}
          </Link>
          {secondary ? (
            <Link to={secondary.to} className="button">
              {secondary.label}
            </Link>
          ) : null}
        </div>
      </div>
    </section>
  );
}
