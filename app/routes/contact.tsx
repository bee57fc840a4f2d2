import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Contact Us | 24-Hour Website", "Send us a message and we will answer your enquiry within 24 hours.");

export default function Page() {
  return <PageHero title="Contact Us" lead="Send us a message and we will answer your enquiry within 24 hours." />;
}
