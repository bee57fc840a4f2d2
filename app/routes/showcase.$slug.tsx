import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export async function loader({ params }: LoaderFunctionArgs) {
  return { slug: params.slug ?? "" };
}

export const meta: MetaFunction = () => pageMeta("Example Website | 24-Hour Website", "An example small-business website we build.");

export default function ShowcaseDemo() {
  const { slug } = useLoaderData<typeof loader>();
  return (
    <PageHero title="Example Business" lead={`Demo: ${slug}`}>
      <Link to="/showcase">Back to Portfolio</Link>
    </PageHero>
  );
}
