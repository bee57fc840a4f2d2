import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import * as coupon from "~/routes/admin.coupons.$couponId";
import * as coupons from "~/routes/admin.coupons._index";
import { newFormKey } from "~/server/form-keys.server";
import { AdminAuditLog, Coupon, CouponRedemption } from "~/server/models/index.server";
import { flashOf, get, post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

let cookie: string;
beforeAll(async () => {
  cookie = (await signedInUser({ admin: true })).cookie;
});

const form = (fields: Record<string, string> = {}) => ({
  intent: "create",
  code: ` spring${randomUUID().slice(0, 6)} `,
  discount_type: "percentage",
  discount_value: "20",
  max_uses: "",
  valid_until: "",
  active: "on",
  allowed_emails: "Jo@Acme.au, , bo@acme.au",
  allowed_domains: "",
  ...fields,
});
const errorsOf = (data: unknown) => JSON.stringify((data as { error?: unknown }).error ?? data);

describe("coupons", () => {
  it("creates a coupon with the code uppercased and the lists cleaned", async () => {
    const body = form();
    const answer = await post(coupons.action, "/admin/coupons", cookie, body);
    expect(answer.status).toBe(303);
    expect((await flashOf(answer))?.title).toBe("Coupon Created");
    const code = body.code.trim().toUpperCase();
    const doc = (await Coupon.findOne({ code }).lean())!;
    expect(doc).toMatchObject({
      discount_type: "percentage",
      discount_value: 20,
      max_uses: null,
      active: true,
      allowed_emails: ["jo@acme.au", "bo@acme.au"],
    });
    expect(await AdminAuditLog.countDocuments({ target_id: String(doc._id), action: "coupon.created" })).toBe(1);
  });

  it("answers bad input with the spec's message, keeps what was typed and stores nothing", async () => {
    const before = await Coupon.countDocuments();
    for (const [fields, message] of [
      [{ code: "" }, "Please fill in all required fields"],
      [{ discount_value: "150" }, "Percentage must be between 1 and 100"],
      [{ discount_type: "fixed", discount_value: "0" }, "Value must be at least 1"],
      [{ max_uses: "0" }, "Max uses must be at least 1"],
    ] as const) {
      const answer = await post(coupons.action, "/admin/coupons", cookie, form(fields));
      expect(answer.status).toBe(400);
      expect(errorsOf(answer.data)).toContain(message);
    }
    expect(await Coupon.countDocuments()).toBe(before);
  });

  it("refuses a duplicate code", async () => {
    const body = form();
    await post(coupons.action, "/admin/coupons", cookie, body);
    const again = await post(coupons.action, "/admin/coupons", cookie, body);
    expect(again.status).toBe(409);
    expect(errorsOf(again.data)).toContain("A coupon with this code already exists");
  });

  it("lists coupons with times used from the redemption records, edits and deletes them", async () => {
    const doc = await Coupon.create({
      code: `EDIT${randomUUID().slice(0, 6)}`.toUpperCase(),
      discount_type: "fixed",
      discount_value: 5000,
    });
    const id = String(doc._id);
    await CouponRedemption.create({ coupon_id: id, slot: "1", order_id: randomUUID(), status: "used" });
    const listed = (
      (await get(coupons.loader, "/admin/coupons", cookie)).data as Awaited<ReturnType<typeof coupons.loader>>
    ).page.rows.find((c) => c.id === id)!;
    expect(listed).toMatchObject({ timesUsed: 1, discount: "$50.00 off" });

    const edit = (await get(coupon.loader, `/admin/coupons/${id}`, cookie, { couponId: id })).data as Awaited<
      ReturnType<typeof coupon.loader>
    >;
    expect(edit.defaults).toMatchObject({ discount_type: "fixed", discount_value: "50" });
    const updated = await post(
      coupon.action,
      `/admin/coupons/${id}`,
      cookie,
      { ...edit.defaults, intent: "update", discount_value: "75", max_uses: "5" },
      { couponId: id },
    );
    expect((await flashOf(updated))?.title).toBe("Updated");
    expect((await Coupon.findById(id).lean())!).toMatchObject({ discount_value: 7500, max_uses: 5 });

    // A used coupon is deactivated, so the order that used it keeps its history.
    const confirm = (await get(coupon.loader, `/admin/coupons/${id}?confirm=delete`, cookie, { couponId: id }))
      .data as { confirmDelete: boolean };
    expect(confirm.confirmDelete).toBe(true);
    const deleted = await post(coupon.action, `/admin/coupons/${id}`, cookie, { intent: "delete" }, { couponId: id });
    expect((await flashOf(deleted))?.title).toBe("Deleted");
    expect((await Coupon.findById(id).lean())!.active).toBe(false);
    expect(await CouponRedemption.countDocuments({ coupon_id: id })).toBe(1);
  });

  it("deletes an unused coupon for good; deleting twice is a 404, not an error", async () => {
    const id = String(
      (
        await Coupon.create({
          code: `GONE${randomUUID().slice(0, 6)}`.toUpperCase(),
          discount_type: "percentage",
          discount_value: 5,
        })
      )._id,
    );
    expect(
      (await flashOf(await post(coupon.action, `/admin/coupons/${id}`, cookie, { intent: "delete" }, { couponId: id })))
        ?.title,
    ).toBe("Deleted");
    expect(await Coupon.exists({ _id: id })).toBeNull();
    expect(
      (await post(coupon.action, `/admin/coupons/${id}`, cookie, { intent: "delete" }, { couponId: id })).status,
    ).toBe(404);
    expect((await get(coupon.loader, "/admin/coupons/not-an-id", cookie, { couponId: "not-an-id" })).status).toBe(404);
  });

  it("answers a resent Delete (same press, its answer lost) as the first, not 'Coupon not found'", async () => {
    const id = String(
      (
        await Coupon.create({
          code: `RESENT${randomUUID().slice(0, 6)}`.toUpperCase(),
          discount_type: "percentage",
          discount_value: 5,
        })
      )._id,
    );
    const press = { intent: "delete", [FORM_KEY_FIELD]: newFormKey() };
    for (let i = 0; i < 2; i++)
      expect(
        (await flashOf(await post(coupon.action, `/admin/coupons/${id}`, cookie, press, { couponId: id })))?.title,
      ).toBe("Deleted");
    expect(await Coupon.exists({ _id: id })).toBeNull();
    const another = { intent: "delete", [FORM_KEY_FIELD]: newFormKey() };
    expect((await post(coupon.action, `/admin/coupons/${id}`, cookie, another, { couponId: id })).status).toBe(404);
  });
});
