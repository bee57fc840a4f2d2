import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/server/auth.server";
import { getOrderForUser } from "~/server/customer-orders.server";
import { orderStatusAccess } from "~/server/order-status.server";
import { tokenSession } from "~/server/tokens.server";
import { getStorage } from "~/server/storage.server";

/**
 * Serves an uploaded logo or photo to the order's customer or an admin. The
 * customer is whoever may download the order's data export, which links to these
 * files: the holder of its intake link or its status link, or
 * the signed-in account it belongs to. Files are sent as inert images: a
 * sandboxing CSP means an SVG can never run script, even when opened directly.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  const match = /^(logos|photos)\/([0-9a-f-]{36})\/[0-9a-f]{24}(\.thumb)?\.(png|jpg|svg|webp|gif)$/.exec(key);
  if (!match) throw new Response("Not Found", { status: 404 });
  const orderId = match[2];
  if (!(await mayOpen(request, orderId))) throw new Response("Not Found", { status: 404 });
  const object = await getStorage().get(key);
  if (!object) throw new Response("Not Found", { status: 404 });
  return new Response(Buffer.from(object.body), {
    headers: {
      "Content-Type": object.contentType,
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "inline",
      "Cache-Control": "private, max-age=3600",
    },
  });
}

async function mayOpen(request: Request, orderId: string) {
  const intake = await tokenSession(request, "intake");
  if (intake && intake.state !== "invalid" && intake.token.order_id === orderId) return true;
  if ((await orderStatusAccess(request))?.orderId === orderId) return true;
  const user = await getUser(request);
  return Boolean(user && (user.isAdmin || (await getOrderForUser({ orderId, userId: user.id }))));
}
