import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Website Maintenance Plans | 24-Hour Website", "Monthly care for your website: updates, backups and support.");

export default function Page() {
  return <PageHero title="Website Maintenance Plans" lead="Monthly care for your website: updates, backups and support." />;
}
