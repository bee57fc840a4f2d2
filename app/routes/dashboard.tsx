import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { requireUser } from "~/server/auth.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | 24-Hour Website" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { email: user.email };
}

export default function Dashboard() {
  const { email } = useLoaderData<typeof loader>();
  return <PageHero title="Dashboard" lead={`Signed in as ${email}`} />;
}
