import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Services | 24-Hour Website", "24-hour websites, multi-page business sites, eCommerce stores and review generation.");

export default function Page() {
  return <PageHero title="Choose What Works for Your Business" lead="24-hour websites, multi-page business sites, eCommerce stores and review generation." />;
}
