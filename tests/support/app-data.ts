import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import type { TokenPurpose } from "~/domain/tokens";
import { connectDb, disconnectDb } from "~/server/db.server";
import { Coupon } from "~/server/models/index.server";

/**
 * Browser tests arrange data in the test app's own database (what an admin or
 * an earlier visit would have left there), through the app's models.
 */
export function useAppDatabase() {
  afterAll(() => disconnectDb());
  return {
    async coupon(fields: {
      code: string;
      discount_type: "percentage" | "fixed";
      discount_value: number;
      max_uses?: number;
    }) {
      await connectDb();
      await Coupon.create(fields);
      return fields.code;
    },
  };
}

/**
 * A paid order, fulfilled the way Stripe's webhook would, with its tokens and
 * e-mail. Works on whichever database the test is connected to.
 */
export async function paidOrder(email = `buyer-${randomBytes(5).toString("hex")}@example.test`) {
  const { Order } = await import("~/server/models/index.server");
  const { fulfilOrder, statusTokenFor } = await import("~/server/fulfilment.server");
  await connectDb();
  const order = await Order.create({ email, amount_total: 30_000 });
  const { token } = await fulfilOrder({ orderId: order._id, sessionId: `cs_test_${order._id}`, amountPaid: 30_000 });
  return { orderId: order._id, email, token, statusToken: await statusTokenFor(order._id) };
}

/** The cookie a browser holds after opening a link with this token ("__intake=…"). */
export async function tokenCookie(token: string, purpose: TokenPurpose = "intake") {
  const { exchangeToken } = await import("~/server/tokens.server");
  const response = await exchangeToken(new Request("http://localhost/"), token, purpose);
  const cookie = response.headers.get("Set-Cookie");
  if (!cookie || response.headers.get("Location")?.startsWith("/checkout"))
    throw new Error(`token not accepted for ${purpose}`);
  return cookie.split(";")[0];
}
