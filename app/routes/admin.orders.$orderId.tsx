import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { requireAdmin } from "~/server/auth.server";

export const meta: MetaFunction = () => [{ title: "Order | Admin" }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { orderId: params.orderId ?? "" };
}

export default function AdminOrder() {
  const { orderId } = useLoaderData<typeof loader>();
  return <PageHero title={`Order #${orderId.slice(0, 8)}`} />;
}
