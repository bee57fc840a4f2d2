import { randomUUID } from "node:crypto";
import { fulfilOrder } from "~/server/fulfilment.server";
import { Order } from "~/server/models/index.server";
import { hashToken } from "~/server/tokens.server";
import { tokenCookie } from "./app-data";
import { signedInUser } from "./auth";

/** What a loader or action answered, whether it returned or threw: status, headers and data. */
export type Answer = { status: number; location: string | null; headers: Headers; data: unknown };

type RouteFn = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => unknown;

async function settle(run: () => unknown): Promise<Answer> {
  let out: unknown;
  try {
    out = await run();
  } catch (thrown) {
    out = thrown;
  }
  if (out instanceof Response)
    return { status: out.status, location: out.headers.get("Location"), headers: out.headers, data: null };
  if (
    out &&
    typeof out === "object" &&
    "init" in out &&
    "data" in out &&
    (out as { type?: string }).type === "DataWithResponseInit"
  ) {
    const init = (out as { init?: ResponseInit | null }).init;
    return {
      status: init?.status ?? 200,
      location: null,
      headers: new Headers(init?.headers),
      data: (out as { data: unknown }).data,
    };
  }
  return { status: 200, location: null, headers: new Headers(), data: out };
}

/** Calls a route's loader as a GET from a browser holding `cookie`. */
export function get(loader: unknown, path: string, cookie = "", params: Record<string, string> = {}) {
  const request = new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
  return settle(() => (loader as RouteFn)({ request, params, context: {} }));
}

/** Calls a route's action as a form post (urlencoded; repeated keys from arrays). */
export function post(
  action: unknown,
  path: string,
  cookie: string,
  body: Record<string, string | string[]>,
  params: Record<string, string> = {},
) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return settle(() => (action as RouteFn)({ request, params, context: {} }));
}

/**
 * The people of the authorization matrix, each as the cookie their browser sends:
 * besides the admin past the second factor, an admin whose password was right but
 * who has not entered a code yet, and one who has not set up the second factor.
 */
export async function people() {
  const admin = await signedInUser({ admin: true });
  const passwordOnly = await signedInUser({ admin: true, secondFactor: "password-only" });
  const unenrolled = await signedInUser({ admin: true, secondFactor: false });
  const customer = await signedInUser();
  const holder = await paidOrderWithSession(`holder-${randomUUID()}@example.test`);
  return {
    visitor: { cookie: "" },
    "token holder": { cookie: holder.cookie },
    customer: { cookie: customer.cookie, user: customer.user },
    "admin with password only": { cookie: passwordOnly.cookie, user: passwordOnly.user },
    "admin without a second factor": { cookie: unenrolled.cookie, user: unenrolled.user },
    admin: { cookie: admin.cookie, user: admin.user },
  } as const;
}

/** A paid order (fulfilled as Stripe's webhook would) and the intake session cookie its link opens. */
export async function paidOrderWithSession(email: string, fields: Record<string, unknown> = {}) {
  const order = await Order.create({ email, amount_total: 30_000, ...fields });
  const { token } = await fulfilOrder({ orderId: order._id, sessionId: `cs_${order._id}`, amountPaid: 30_000 });
  return { orderId: order._id, token, tokenId: hashToken(token), cookie: await tokenCookie(token) };
}

/** The flash message a redirect carries, decoded from its Set-Cookie (as the next page would show it). */
export async function flashOf(answer: Answer): Promise<{ kind: string; title: string; description?: string } | null> {
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__flash="));
  if (!cookie) return null;
  const { takeFlashes } = await import("~/server/flash.server");
  const { flashes } = await takeFlashes(new Request("http://localhost/", { headers: { Cookie: cookie } }));
  return flashes.at(-1) ?? null;
}
