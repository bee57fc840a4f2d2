import type { LoaderFunctionArgs } from "@remix-run/node";
import { orderIdParam } from "~/domain/admin/order-detail";
import { downloadOrderArchive } from "~/server/admin/order-files.server";
import { requireAdmin } from "~/server/auth.server";

/** All of the order's files in one zip named after the business, streamed: admins only, audited. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return downloadOrderArchive({ orderId: orderIdParam(params), actor: admin, signal: request.signal });
}
