import { describe, expect, it } from "vitest";
import { editFormValues } from "~/domain/admin/edit-data";
import type { StoredPhoto, StoredSubmission } from "~/domain/intake/data";
import * as order from "~/routes/admin.orders.$orderId";
import * as orderFile from "~/routes/admin.orders.$orderId_.files.$";
import * as orderArchive from "~/routes/admin.orders.$orderId_.files[.]zip";
import { action as upload } from "~/routes/intake-form_.upload";
import { AdminAuditLog, IntakeSubmission } from "~/server/models/index.server";
import { getStorage } from "~/server/storage.server";
import { paidOrder, tokenCookie } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { post } from "../support/admin";
import { useTestDatabase } from "../support/db";

/**
 * The customer's files for the builder (the admin order page): each full-size file and one archive of
 * all of them, admins only, each download audited; a key is served only under its own order.
 */
useTestDatabase();

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A paid order whose customer uploaded a logo and two photos through the intake's own upload route. */
async function orderWithFiles(businessName: string) {
  const o = await paidOrder();
  await IntakeSubmission.create({ _id: o.orderId, order_id: o.orderId, furthest_step: 4, business_name: businessName });
  const cookie = await tokenCookie(o.token);
  for (const [field, name] of [
    ["logo", "logo.png"],
    ["photos", "Shop Front.png"],
    ["photos", "van.png"],
  ]) {
    const form = new FormData();
    form.append(field, new File([PNG as BlobPart], name, { type: "image/png" }));
    await upload({
      request: new Request("http://localhost/intake-form/upload", {
        method: "POST",
        body: form,
        headers: { Cookie: cookie },
      }),
      params: {},
      context: {},
    });
  }
  const doc = (await IntakeSubmission.findById(o.orderId).lean<StoredSubmission>())!;
  expect(doc.logo_key).toBeTruthy();
  expect(doc.photo_metadata).toHaveLength(2);
  return { orderId: o.orderId, doc, photos: doc.photo_metadata as StoredPhoto[] };
}

async function call(loader: (args: never) => unknown, path: string, cookie: string, params: Record<string, string>) {
  const request = new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
  try {
    return (await loader({ request, params, context: {} } as never)) as Response;
  } catch (thrown) {
    return thrown as Response;
  }
}

/** The names and sizes a zip's central directory lists (read from its end, as any unzip does). */
function zipEntries(zip: Buffer): { name: string; size: number }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: { name: string; size: number }[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    out.push({ name: zip.subarray(at + 46, at + 46 + nameLength).toString("utf8"), size });
    at += 46 + skip;
  }
  return out;
}

describe("the customer's files on the admin order page", () => {
  it("opens each full-size file for an admin, audited, and never a key of another order", async () => {
    const admin = await signedInUser({ admin: true });
    const a = await orderWithFiles("Acme Bakery");
    const b = await orderWithFiles("Other Shop");
    const key = a.photos[0].key;

    const answer = await call(orderFile.loader, `/admin/orders/${a.orderId}/files/${key}`, admin.cookie, {
      orderId: a.orderId,
      "*": key,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("image/png");
    expect(answer.headers.get("Content-Disposition")).toBe('inline; filename="01-shop-front.png"');
    const stored = await getStorage().get(key);
    expect(Buffer.from(await answer.arrayBuffer()).equals(Buffer.from(stored!.body))).toBe(true);
    const audit = await AdminAuditLog.find({ action: "file.downloaded", target_id: a.orderId }).lean();
    expect(audit.map((e) => [e.actor_id, e.details])).toEqual([[admin.user.id, { file: "Photo 1" }]]);

    // Another order's key under this order, this order's key under another, a thumbnail, a made-up key: 404.
    for (const [orderId, k] of [
      [a.orderId, b.photos[0].key],
      [b.orderId, key],
      [a.orderId, a.photos[0].thumbKey!],
      [a.orderId, `photos/${a.orderId}/${"0".repeat(24)}.png`],
      [a.orderId, "../../etc/passwd"],
    ]) {
      const refused = await call(orderFile.loader, `/admin/orders/${orderId}/files/${k}`, admin.cookie, {
        orderId,
        "*": k,
      });
      expect(refused.status, `${orderId} ${k}`).toBe(404);
    }
    expect(await AdminAuditLog.countDocuments({ action: "file.downloaded", target_id: b.orderId })).toBe(0);
  });

  it("downloads every file as one zip named after the business, streamed, audited", async () => {
    const admin = await signedInUser({ admin: true });
    const a = await orderWithFiles("Acme Bakery & Café");
    const answer = await call(orderArchive.loader, `/admin/orders/${a.orderId}/files.zip`, admin.cookie, {
      orderId: a.orderId,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("application/zip");
    expect(answer.headers.get("Content-Disposition")).toBe('attachment; filename="acme-bakery-cafe-files.zip"');
    expect(answer.body).toBeInstanceOf(ReadableStream);
    const zip = Buffer.from(await answer.arrayBuffer());
    const sizes = await Promise.all(
      [a.doc.logo_key!, ...a.photos.map((p) => p.key)].map(async (k) => (await getStorage().get(k))!.body.length),
    );
    expect(zipEntries(zip)).toEqual([
      { name: "logo.png", size: sizes[0] },
      { name: "photos/01-shop-front.png", size: sizes[1] },
      { name: "photos/02-van.png", size: sizes[2] },
    ]);
    const audit = await AdminAuditLog.findOne({ action: "files.downloaded", target_id: a.orderId }).lean();
    expect(audit?.details).toEqual({ archive: "acme-bakery-cafe-files.zip", files: 3 });
  });

  it("lets Edit Data change each photo's alt text, placement, crop and priority, keeping the files", async () => {
    const admin = await signedInUser({ admin: true });
    const a = await orderWithFiles("Acme Bakery");
    await IntakeSubmission.updateOne({ _id: a.orderId }, { $set: { status: "submitted" } });
    const answer = await post(
      order.action,
      `/admin/orders/${a.orderId}`,
      admin.cookie,
      {
        ...editFormValues(a.doc),
        intent: "save-data",
        "photos[0].id": a.photos[0].id,
        "photos[0].altText": "The shop front at dawn",
        "photos[0].placement": "hero",
        "photos[0].crop": "square",
        "photos[0].priority": "high",
        "photos[1].id": a.photos[1].id,
        "photos[1].altText": "",
        "photos[1].placement": "team",
        "photos[1].crop": "portrait",
        "photos[1].priority": "low",
      },
      { orderId: a.orderId },
    );
    expect(answer.status).toBe(303);
    const photos = (await IntakeSubmission.findById(a.orderId).lean())!.photo_metadata as StoredPhoto[];
    expect(photos.map(({ altText, placement, crop, priority }) => ({ altText, placement, crop, priority }))).toEqual([
      { altText: "The shop front at dawn", placement: "hero", crop: "square", priority: "high" },
      { altText: "", placement: "team", crop: "portrait", priority: "low" },
    ]);
    expect(photos.map((p) => [p.key, p.thumbKey])).toEqual(a.photos.map((p) => [p.key, p.thumbKey]));
  });
});
