import type { LoaderFunctionArgs } from "@remix-run/node";
import { ORDER_FILES_MESSAGES } from "~/domain/admin/order-files";
import { orderIdParam } from "~/domain/admin/order-detail";
import { downloadOrderFile } from "~/server/admin/order-files.server";
import { requireAdmin } from "~/server/auth.server";

/** One of the order's files at full size, for the builder: admins only, only a key of this very order, audited. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const orderId = orderIdParam(params);
  const file = await downloadOrderFile({ orderId, key: (params["*"] ?? "").slice(0, 200), actor: admin });
  if (!file) throw new Response(ORDER_FILES_MESSAGES.notFound, { status: 404 });
  return file;
}
