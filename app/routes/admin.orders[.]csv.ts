import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseOrderFilters } from "~/domain/admin/order-filters.schema";
import { ordersCsvStream } from "~/server/admin/orders.server";
import { requireAdmin } from "~/server/auth.server";
import { log } from "~/server/log.server";

/** /admin/orders.csv?q=&status=&date=: the filtered order list as CSV, streamed. */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  log("info", "admin.orders_exported", {
    actor_id: admin.id,
    status: filters.status,
    date: filters.date,
    searched: Boolean(filters.q),
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(ordersCsvStream(filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
