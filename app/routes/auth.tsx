import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { getUser } from "~/server/auth.server";

export const meta: MetaFunction = () => pageMeta("Sign In | 24-Hour Website", "Sign in to follow your orders.");

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect("/dashboard");
  return null;
}

export default function Auth() {
  return <PageHero title="Sign In" lead="Sign in or create an account to follow your orders." />;
}
