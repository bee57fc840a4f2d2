import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CallToAction } from "~/components/marketing";
import { SiteMockup } from "~/components/SiteMockup";
import { pageMeta } from "~/content/meta";
import { findExample, GENERIC_EXAMPLE } from "~/content/showcase";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

/**
 * A demo site; an unknown slug shows the generic example business rather than a dead end. Only the known
 * examples are public pages kept in memory (app/entry.server.tsx): a made-up slug is rendered for its request
 * and never stored, so made-up addresses cannot push the real pages out of the page cache.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const example = findExample(params.slug);
  return data({ example }, example === GENERIC_EXAMPLE ? { headers: { "Cache-Control": "no-store" } } : undefined);
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    // The generic example's name is a placeholder ("Your Business Name"), not a title that says what the page is.
    `${!data || data.example.slug === GENERIC_EXAMPLE.slug ? "Example Small Business Website" : data.example.name} (Demo) | 24-Hour Website`,
    data?.example.description ?? "An example small-business website.",
  );

/**
 * The example business's small site, drawn in its own theme inside our page:
 * a strip saying it is a demo, then its hero, services, story, a customer's
 * words and how to reach them. Its buttons stay within the demo.
 */
export default function ShowcaseDemo() {
  const { example: e } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="demo-strip">
        <div className="wrap">
          <span>
            Demo website: {e.category}. Built by 24-Hour Website; the business and its phone number are examples.
          </span>
          <Link to="/showcase">
            <span aria-hidden="true">←</span> Back to Portfolio
          </Link>
        </div>
      </div>
      <article className={`demo-site theme-${e.theme}`} aria-labelledby="demo-name">
        <header className="demo-hero">
          <div className="wrap demo-hero-grid">
            <div>
              <p className="demo-tagline">{e.tagline}</p>
              <h1 id="demo-name">{e.name}</h1>
              <p className="demo-headline">{e.headline}</p>
              <p className="demo-actions">
                <a href="#demo-contact" className="demo-button">
                  {e.cta}
                </a>
                <span className="demo-phone">{e.phone}</span>
              </p>
              <ul className="demo-trust">
                {e.trust.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            </div>
            <SiteMockup example={e} className="mockup demo-mockup" />
          </div>
        </header>

        <section className="demo-section" aria-labelledby="demo-services">
          <div className="wrap">
            <h2 id="demo-services">Our Services</h2>
            <ul className="grid card-list">
              {e.services.map((s) => (
                <li key={s.name} className="card demo-card">
                  <h3>{s.name}</h3>
                  <p>{s.description}</p>
                  {s.price ? <p className="demo-price">{s.price}</p> : null}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="demo-section demo-about" aria-labelledby="demo-about">
          <div className="wrap two-col">
            <div>
              <h2 id="demo-about">About {e.name}</h2>
              <p>{e.about}</p>
            </div>
            <figure className="demo-quote">
              <blockquote>“{e.testimonial.quote}”</blockquote>
              <figcaption>{e.testimonial.author}</figcaption>
            </figure>
          </div>
        </section>

        <section className="demo-section" id="demo-contact" aria-labelledby="demo-contact-heading">
          <div className="wrap">
            <h2 id="demo-contact-heading">Get in Touch</h2>
            <dl className="demo-details">
              <div>
                <dt>Phone</dt>
                <dd>{e.phone}</dd>
              </div>
              <div>
                <dt>Service area</dt>
                <dd>{e.area}</dd>
              </div>
              <div>
                <dt>Hours</dt>
                <dd>{e.hours}</dd>
              </div>
            </dl>
          </div>
        </section>
      </article>
      <CallToAction
        title="Want a Site Like This?"
        text="Tell us about your business on our intake form and see your first draft within 24 hours, for $300."
        primary={{ to: "/checkout", label: "Get Started" }}
        secondary={{ to: "/showcase", label: "See the Other Examples" }}
      />
    </>
  );
}
