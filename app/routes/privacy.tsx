import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Privacy Policy | 24-Hour Website", "How we collect, use, protect and delete your information, including data sent to AI.");

export default function Page() {
  return <PageHero title="Privacy Policy" lead="How we collect, use, protect and delete your information, including data sent to AI." />;
}
