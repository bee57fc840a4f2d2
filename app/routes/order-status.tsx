import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Order Status | 24-Hour Website", "Track your 24-hour website build");

export default function Page() {
  return <PageHero title="Order Status" lead="Track your 24-hour website build" />;
}
