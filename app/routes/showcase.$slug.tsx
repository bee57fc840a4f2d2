import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Section } from "~/components/marketing";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { findExample } from "~/content/showcase";

/** A demo site; an unknown slug shows the generic example business rather than a dead end. */
export async function loader({ params }: LoaderFunctionArgs) {
  return { example: findExample(params.slug) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(`${data?.example.name ?? "Example"} (Demo) | 24-Hour Website`, data?.example.description ?? "An example small-business website.");

export default function ShowcaseDemo() {
  const { example } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero eyebrow={`Demo website: ${example.category}`} title={example.name} lead={example.tagline}>
        <Link to="/showcase">← Back to Portfolio</Link>
      </PageHero>
      <Section title={`About ${example.name}`}>
        <p className="prose">{example.about}</p>
      </Section>
      <Section title="Our Services" tone="alt">
        <ul className="grid card-list">
          {example.services.map((s) => (
            <li key={s} className="card">
              <h3>{s}</h3>
              <p>Placeholder text describing this service, written for your customers.</p>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
