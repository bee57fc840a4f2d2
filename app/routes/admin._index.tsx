import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { requireAdmin } from "~/server/auth.server";

export const meta: MetaFunction = () => [{ title: "Admin | 24-Hour Website" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

export default function Admin() {
  return <PageHero title="Admin Panel" />;
}
