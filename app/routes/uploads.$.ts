import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/server/auth.server";
import { tokenSession } from "~/server/tokens.server";
import { getStorage } from "~/server/storage.server";

/**
 * Serves an uploaded logo or photo to the order's customer (intake session) or
 * an admin. Files are sent as inert images: a sandboxing CSP means an SVG can
 * never run script, even when opened directly.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  const match = /^(logos|photos)\/([0-9a-f-]{36})\/[0-9a-f]{24}(\.thumb)?\.(png|jpg|svg|webp|gif)$/.exec(key);
  if (!match) throw new Response("Not Found", { status: 404 });
  const orderId = match[2];
  const intake = await tokenSession(request, "intake");
  const allowed =
    (intake && intake.state !== "invalid" && intake.token.order_id === orderId) || (await getUser(request))?.isAdmin;
  if (!allowed) throw new Response("Not Found", { status: 404 });
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
