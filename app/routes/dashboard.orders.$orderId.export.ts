import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "~/domain/zod";
import { requireUser } from "~/server/auth.server";
import { getOrderForUser } from "~/server/customer-orders.server";
import { downloadOrderData } from "~/server/data-export.server";

const OrderIdSchema = z.uuid();

/**
 * A signed-in customer's data export for one of their own orders (the
 * 'Download my data' button on /dashboard). Another person's order is a 404,
 * the same answer as an order that does not exist.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const orderId = OrderIdSchema.safeParse(params.orderId);
  if (!orderId.success || !(await getOrderForUser({ orderId: orderId.data, userId: user.id })))
    return new Response("Not Found", { status: 404 });
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  return downloadOrderData({ orderId: orderId.data, requestedBy: "account" });
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
