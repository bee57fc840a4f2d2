import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Payment Successful | 24-Hour Website", "Your payment was received.");

export async function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (!sessionId) throw redirect("/rapid-website");
  return null;
}

export default function OrderSuccess() {
  return <PageHero title="Payment Successful!" lead="Check your e-mail for the link to your intake form." />;
}
