import { createCookieSessionStorage } from "@remix-run/node";
import { connectDb, isDuplicateKeyError } from "./db.server";
import { cookieOptions } from "./cookies.server";
import { checkToken, renewToken } from "./intake.server";
import { IntakeSubmission, IntakeToken, Order } from "./models/index.server";

/**
 * Access to /order-status. The e-mailed link's token is exchanged once for a
 * signed cookie that names that one order, and the page moves to a URL without
 * the token. Every loader and action of the page starts with
 * orderStatusAccess(request): the order comes from the cookie, never from a
 * posted field. (The token check is the intake link's for now; the shared token
 * module's 'status' purpose replaces it in this one place.)
 */

type StatusSessionData = { orderId: string };
let storage: ReturnType<typeof createCookieSessionStorage<StatusSessionData>> | undefined;
function statusStorage() {
  storage ??= createCookieSessionStorage<StatusSessionData>({ cookie: cookieOptions("__order_status", { maxAge: 60 * 60 * 24 * 90 }) });
  return storage;
}

/** Exchanges an e-mailed token for this browser's order-status cookie; null when the token is unknown. */
export async function exchangeStatusToken(request: Request, token: string): Promise<string | null> {
  const state = await checkToken(token);
  if (state.state === "invalid") return null;
  const session = await statusStorage().getSession(request.headers.get("Cookie"));
  session.set("orderId", state.token.order_id);
  return statusStorage().commitSession(session);
}

/** The order this browser may see, or null (no link opened yet). */
export async function orderStatusAccess(request: Request): Promise<{ orderId: string } | null> {
  const session = await statusStorage().getSession(request.headers.get("Cookie"));
  const orderId = session.get("orderId");
  return typeof orderId === "string" ? { orderId } : null;
}

/** The order, its newest intake link and its submission, for the page. Null when the order is gone. */
export async function loadOrderStatus(orderId: string) {
  await connectDb();
  const order = await Order.findById(orderId).lean();
  if (!order) return null;
  const [token, submission] = await Promise.all([
    IntakeToken.findOne({ order_id: orderId }).sort({ created_at: -1 }).lean(),
    IntakeSubmission.findOne({ order_id: orderId }).lean(),
  ]);
  return { order, token, submission };
}

/** Renews the order's newest intake link by 30 days (spec: renew-token by the customer); false when it can't be. */
export async function renewStatusAccess(orderId: string): Promise<boolean> {
  await connectDb();
  const token = await IntakeToken.findOne({ order_id: orderId }).sort({ created_at: -1 }).lean();
  return token ? renewToken(String(token._id)) : false;
}

/** Records the customer's request to delete their data (the admin's privacy tab lists it). Idempotent. */
export async function requestDataDeletion(orderId: string, now = new Date()) {
  await connectDb();
  const existing = await IntakeSubmission.findOne({ order_id: orderId }, { data_deletion_requested: 1 }).lean();
  if (existing?.data_deletion_requested) return;
  const update = { $set: { data_deletion_requested: true, data_deletion_date: now } };
  try {
    await IntakeSubmission.updateOne({ order_id: orderId }, update, { upsert: true });
  } catch (error) {
    // Two first requests raced to create the record: the loser sets the same fields on the winner's.
    if (!isDuplicateKeyError(error)) throw error;
    await IntakeSubmission.updateOne({ order_id: orderId }, update);
  }
}
