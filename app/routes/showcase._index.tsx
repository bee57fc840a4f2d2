import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Portfolio | 24-Hour Website", "Example websites for a dog groomer, an electrician and an accountant.");

export default function Page() {
  return <PageHero title="Our Work" lead="Example websites for a dog groomer, an electrician and an accountant." />;
}
