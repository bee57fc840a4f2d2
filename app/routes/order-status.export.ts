import type { ActionFunctionArgs } from "@remix-run/node";
import { downloadOrderData } from "~/server/data-export.server";
import { sessionToken } from "~/server/intake.server";

/**
 * The customer's data export for the order their access link opened (the
 * 'Download my data' button on /order-status): a JSON file. A post, because it
 * writes an audit entry; only the order named by this browser's access cookie.
 */
export async function action({ request }: ActionFunctionArgs) {
  const access = await sessionToken(request);
  if (!access || access.state === "invalid" || access.state === "expired") return new Response("Not Found", { status: 404 });
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  return downloadOrderData({ orderId: access.token.order_id, requestedBy: "token" });
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
