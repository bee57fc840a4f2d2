import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Checkout | 24-Hour Website", "Order your 24-Hour Website: choose add-ons, apply a coupon and pay securely.");

export default function Page() {
  return <PageHero title="Checkout" lead="Order your 24-Hour Website: choose add-ons, apply a coupon and pay securely." />;
}
