import type { ActionFunctionArgs } from "@remix-run/node";
import { downloadOrderData } from "~/server/data-export.server";
import { requireTokenAccess } from "~/server/tokens.server";

/**
 * The customer's data export for the order their status link opened (the
 * 'Download my data' button on /order-status): a JSON file. A post, because it
 * writes an audit entry; only the order named by this browser's status cookie.
 */
export async function action({ request }: ActionFunctionArgs) {
  const access = await requireTokenAccess(request, "status");
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  return downloadOrderData({ orderId: access.orderId, requestedBy: "token" });
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
