import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Review Generation | 24-Hour Website", "Automated SMS and e-mail review requests, with private filtering of negative feedback.");

export default function Page() {
  return <PageHero title="Get More 5-Star Reviews" lead="Automated SMS and e-mail review requests, with private filtering of negative feedback." />;
}
