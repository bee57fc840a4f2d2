import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Facebook Disclaimer | 24-Hour Website", "This site is not part of, or endorsed by, Facebook or Meta Platforms, Inc.");

export default function Page() {
  return <PageHero title="Facebook Disclaimer" lead="This site is not part of, or endorsed by, Facebook or Meta Platforms, Inc." />;
}
