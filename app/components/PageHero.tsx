import type { ReactNode } from "react";

/** A number and the word after it stay on one line ("24 Hours", "3 Rounds"): the space between them does not break. */
export function keepNumbersWhole(text: string): string {
  return text.replace(/(\d) (?=\p{L})/gu, "$1\u00a0");
}

/** The heading block every page opens with: its one <h1>, an optional eyebrow and a short line under it. */
export function PageHero({
  title,
  lead,
  eyebrow,
  children,
}: {
  title: string;
  lead?: string;
  eyebrow?: string;
  children?: ReactNode;
}) {
  return (
    <section className="hero">
      <div className="wrap">
        {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
        <h1>{keepNumbersWhole(title)}</h1>
        {lead ? <p className="lead">{lead}</p> : null}
        {children}
      </div>
    </section>
  );
}
