import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Website Packages | 24-Hour Website", "Starter, Professional and Enterprise website packages, with or without maintenance.");

export default function Page() {
  return <PageHero title="Website Packages" lead="Starter, Professional and Enterprise website packages, with or without maintenance." />;
}
