import type { ReactNode } from "react";

/** The heading block every page opens with: its one <h1> and a short line under it. */
export function PageHero({ title, lead, children }: { title: string; lead?: string; children?: ReactNode }) {
  return (
    <section className="hero">
      <div className="wrap">
        <h1>{title}</h1>
        {lead ? <p className="lead">{lead}</p> : null}
        {children}
      </div>
    </section>
  );
}
