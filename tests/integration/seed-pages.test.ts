import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { Coupon, Order } from "~/server/models/index.server";
import { paidOrder } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { intakeCookie, postForm, rawRequest, useRunningAppDatabase } from "../support/http";
import { adminPages, INTAKE, PUBLIC } from "../support/seed-walk";

/**
 * The demo data as `npm run seed` writes it, then every page opened as each role would open it with
 * JavaScript off (a plain GET of the document, and the form posts that re-render a page): no 5xx anywhere.
 */
const connect = useRunningAppDatabase();
const run = promisify(execFile);

let pages: { admin: string[]; coupons: string[] };
let people: Record<"visitor" | "link holder" | "customer" | "admin", string>;

beforeAll(async () => {
  await connect();
  const seeded = await run("node_modules/.bin/tsx", ["scripts/seed.ts"], { env: process.env, timeout: 120_000 });
  // Its links open the app it seeded for (APP_URL, or the PORT it is served on), not always port 3000.
  expect(seeded.stdout).toContain(`Seeded demo data for the app at ${process.env.APP_URL}`);
  // (It writes orders, and prints their links, only into an empty database: the suite's is not.)
  for (const url of seeded.stdout.match(/https?:\/\/\S+/g) ?? [])
    expect(url.startsWith(`${process.env.APP_URL}`)).toBe(true);
  const coupons = await Coupon.find({}, { _id: 1 }).sort({ created_at: -1 }).limit(20).lean();
  const orders = await Order.find({}, { _id: 1 }).sort({ created_at: -1 }).limit(20).lean();
  pages = {
    coupons: coupons.map((c) => `/admin/coupons/${String(c._id)}`),
    admin: adminPages(orders.map((o) => o._id)),
  };
  const holder = await paidOrder();
  const opened = await rawRequest({ path: `/order-status?access_token=${holder.statusToken}` });
  const status = ([] as string[]).concat(opened.headers["set-cookie"] ?? []).find((c) => c.startsWith("__status="));
  people = {
    visitor: "",
    "link holder": `${await intakeCookie(holder.token)}; ${status?.split(";")[0] ?? ""}`,
    customer: (await signedInUser()).cookie,
    admin: (await signedInUser({ admin: true })).cookie,
  };
}, 180_000);

describe("after npm run seed", () => {
  it("seeds coupons the admin can read", async () => {
    expect(pages.coupons.length).toBeGreaterThanOrEqual(4);
  });

  it.each(["visitor", "link holder", "customer", "admin"] as const)(
    "every page answers a %s without a 5xx",
    async (role) => {
      const failures: string[] = [];
      for (const path of [...PUBLIC, ...INTAKE, ...pages.admin, ...pages.coupons]) {
        const res = await rawRequest({ path, headers: people[role] ? { Cookie: people[role] } : {} });
        if (res.status >= 500) failures.push(`${path} ${res.status} ${res.text.slice(0, 200)}`);
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );

  it("the coupon pages re-render after admin posts that fail validation, without a 5xx", async () => {
    const cookie = people.admin;
    const failures: string[] = [];
    const bodies = [
      { intent: "create", code: "", discount_type: "percentage", discount_value: "" },
      { intent: "create", code: "X", discount_type: "percentage", discount_value: "500" },
    ];
    for (const body of bodies) {
      const res = await postForm("/admin/coupons", new URLSearchParams(body), { cookie });
      if (res.status >= 500) failures.push(`/admin/coupons ${res.status}`);
    }
    for (const path of pages.coupons.slice(0, 5)) {
      const res = await postForm(
        path,
        new URLSearchParams({ intent: "update", code: "", discount_type: "percentage", discount_value: "0" }),
        { cookie },
      );
      if (res.status >= 500) failures.push(`${path} ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});
