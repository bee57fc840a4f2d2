import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("About Us | 24-Hour Website", "A Northern Rivers web-design business that builds fast, affordable websites for local businesses.");

export default function Page() {
  return <PageHero title="We're a Small Business Too" lead="A Northern Rivers web-design business that builds fast, affordable websites for local businesses." />;
}
