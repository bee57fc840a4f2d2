import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { consumeRateLimit } from "~/server/rate-limit.server";
import { PIXEL_LIMITS } from "~/server/intake/uploads.server";
import { action, loader } from "~/routes/intake-form_.upload";
import { paidOrder, tokenCookie } from "../support/app-data";
import { useTestDatabase } from "../support/db";

/**
 * /intake-form/upload: one step-4 file sent on its own by the page with
 * JavaScript. The intake link's cookie names the order; the file passes the
 * step post's checks and joins the stored logo or photos.
 */
useTestDatabase();

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const file = (name: string, bytes: Uint8Array = PNG) => new File([bytes as BlobPart], name, { type: "image/png" });
/** An answer as the page's XMLHttpRequest reads it: its HTTP status and its JSON. */
type Reply = { status: number; data?: { problems?: string[] } };
const status = (r: Reply) => r.status;
const read = async (answer: Response): Promise<Reply> => ({
  status: answer.status,
  data: await answer.json().catch(() => undefined),
});

/** A paid order whose customer has reached `step`, and its intake cookie. */
async function customer(step = 4) {
  const order = await paidOrder();
  await IntakeSubmission.create({ _id: order.orderId, order_id: order.orderId, furthest_step: step });
  return { ...order, cookie: await tokenCookie(order.token) };
}
async function upload(cookie: string, body: FormData | URLSearchParams, address = "10.35.0.1") {
  const request = new Request("http://localhost/intake-form/upload", {
    method: "POST",
    body,
    headers: { Cookie: cookie, "x-client-address": address },
  });
  try {
    return await read(await action({ request, params: {}, context: {} }));
  } catch (thrown) {
    return read(thrown as Response);
  }
}
const one = (field: string, f: File) => {
  const form = new FormData();
  form.append(field, f);
  return form;
};
const stored = async (orderId: string) => (await IntakeSubmission.findById(orderId).lean())!;

describe("a step-4 file sent on its own", () => {
  it("joins the stored photos one by one, and a logo replaces the stored one", async () => {
    const c = await customer();
    expect(status(await upload(c.cookie, one("photos", file("shop.png"))))).toBe(200);
    const second = await upload(c.cookie, one("photos", file("van.png")));
    expect(second.data?.problems).toEqual([]);
    const photos = (await stored(c.orderId)).photo_metadata as { fileName: string; key: string }[];
    expect(photos.map((p) => p.fileName)).toEqual(["shop.png", "van.png"]);
    expect(photos[0].key).toMatch(new RegExp(`^photos/${c.orderId}/`)); // stored under the cookie's order

    await upload(c.cookie, one("logo", file("old.png")));
    const old = (await stored(c.orderId)).logo_key;
    await upload(c.cookie, one("logo", file("new.png")));
    expect((await stored(c.orderId)).logo_key).toMatch(new RegExp(`^logos/${c.orderId}/`));
    expect((await stored(c.orderId)).logo_key).not.toBe(old);
  });

  it("keeps every photo when several arrive at once (two tabs uploading)", async () => {
    const c = await customer();
    // Eight at once: a write that loses its turn must not take a freed one with a stale draft (4 at once lost none, 8 lost
    // up to 7). One process takes a link's files two at a time (server/in-turn.server.ts); two processes race as before.
    const names = ["a.png", "b.png", "c.png", "d.png", "e.png", "f.png", "g.png", "h.png"];
    const replies = await Promise.all(names.map((name) => upload(c.cookie, one("photos", file(name)))));
    expect(replies.map(status)).toEqual(names.map(() => 200));
    const photos = (await stored(c.orderId)).photo_metadata as { fileName: string }[];
    expect(photos.map((p) => p.fileName).sort()).toEqual(names);
  });

  it("stores a file once when its try is sent again under the same key (its answer lost), eight at once or later", async () => {
    const c = await customer();
    const tryOf = () => {
      const form = one("photos", file("shop.png"));
      form.append("formKey", "upload-key-shop-000000001");
      return form;
    };
    // Eight: as many as one link may have received or waiting at once (more are turned away unread, 429).
    const replies = await Promise.all(Array.from({ length: 8 }, () => upload(c.cookie, tryOf())));
    expect(replies.map(status)).toEqual(replies.map(() => 200));
    expect(replies.map((r) => r.data?.problems)).toEqual(replies.map(() => []));
    expect((await upload(c.cookie, tryOf())).data?.problems).toEqual([]);
    const photos = (await stored(c.orderId)).photo_metadata as { fileName: string }[];
    expect(photos.map((p) => p.fileName)).toEqual(["shop.png"]);
  });

  it("takes one link's files in turn, and turns a flood away at once with 429 and a message; other links go on", async () => {
    const c = await customer();
    const other = await customer();
    // 30 logos at once from one link: two are received at a time, six wait their turn, 22 are refused unread.
    const flood = Array.from({ length: 30 }, (_, i) => upload(c.cookie, one("logo", file(`logo-${i}.png`))));
    const beside = upload(other.cookie, one("logo", file("other.png")));
    const replies = await Promise.all(flood);
    expect(replies.filter((r) => r.status === 200).length).toBe(8);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBe(22);
    expect(refused[0].data?.problems).toEqual([
      "Another file from this form is still being received. Please wait until it has uploaded, then add this one again.",
    ]);
    expect(status(await beside)).toBe(200);
    expect(status(await upload(c.cookie, one("logo", file("later.png"))))).toBe(200); // the line is free again
  });

  it("says why a file was not added, and stores nothing", async () => {
    const c = await customer();
    const reply = await upload(c.cookie, one("photos", file("fake.png", new TextEncoder().encode("not an image"))));
    expect(reply.data?.problems).toEqual(["fake.png is not a PNG, JPG, WebP or GIF image."]);
    expect((await stored(c.orderId)).photo_metadata ?? []).toEqual([]);
  });

  it("needs the intake link, step 4 open, a multipart post with a file, and POST", async () => {
    const c = await customer(2);
    const reply = await upload("", one("photos", file("shop.png")));
    expect(status(reply)).toBeGreaterThanOrEqual(300);
    expect(status(reply)).toBeLessThan(500);
    expect(status(await upload(c.cookie, one("photos", file("shop.png"))))).toBe(409);
    const ready = await customer();
    expect(status(await upload(ready.cookie, new URLSearchParams({ photos: "x" })))).toBe(415);
    expect(status(await upload(ready.cookie, one("other", file("shop.png"))))).toBe(400);
    expect(loader().status).toBe(405);
    expect((await stored(c.orderId)).photo_metadata ?? []).toEqual([]);
  });
});

describe("the hour's budget of decoded image pixels", () => {
  const OVER_BUDGET =
    "shop.png was not added: we process up to 1,000 megapixels of images an hour for each intake form, and this hour's are used up. Please add it again in an hour, or continue without it for now.";
  /** Uses up all but `left` of a budget's slots (5 megapixels each; an image of 1 pixel takes one). */
  const spendAllBut = (limit: keyof typeof PIXEL_LIMITS, who: string, left: number) =>
    consumeRateLimit(PIXEL_LIMITS[limit], who, new Date(), PIXEL_LIMITS[limit].max - left);

  it("refuses, with 429 and a message, an image past the link's hour, exactly at the limit even when uploads race", async () => {
    const c = await customer();
    expect(PIXEL_LIMITS.link.max).toBe(200); // 1,000 megapixels in slots of 5
    await spendAllBut("link", c.orderId, 3);
    const names = ["a.png", "b.png", "c.png", "d.png", "e.png", "f.png"];
    const replies = await Promise.all(names.map((name) => upload(c.cookie, one("photos", file(name)))));
    expect(replies.map(status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect(((await stored(c.orderId)).photo_metadata as unknown[]).length).toBe(3);
    const refused = await upload(c.cookie, one("photos", file("shop.png")));
    expect([status(refused), refused.data?.problems]).toEqual([429, [OVER_BUDGET]]);
    // Another link has its own budget.
    const other = await customer();
    expect(status(await upload(other.cookie, one("photos", file("shop.png"))))).toBe(200);
  });

  it("refuses past the address's hour, whichever link it uses", async () => {
    const [first, second] = [await customer(), await customer()];
    const address = "10.35.0.2";
    await spendAllBut("address", address, 1);
    expect(status(await upload(first.cookie, one("photos", file("shop.png")), address))).toBe(200);
    const refused = await upload(second.cookie, one("photos", file("shop.png")), address);
    expect([status(refused), refused.data?.problems]).toEqual([429, [OVER_BUDGET]]);
    expect((await stored(second.orderId)).photo_metadata ?? []).toEqual([]);
  });

  it("refuses an image compressed thousands of times before decoding it, and charges nothing for it", async () => {
    const c = await customer();
    // The attack: a lossless WebP of one colour, 49 megapixels in 2 KB, that passes the 50-megapixel cap.
    const flat = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: "#336699" } })
      .webp({ lossless: true })
      .toBuffer();
    expect(flat.byteLength).toBeLessThan(4096);
    const reply = await upload(
      c.cookie,
      one("photos", new File([flat as BlobPart], "flat.webp", { type: "image/webp" })),
    );
    expect(status(reply)).toBe(200);
    expect(reply.data?.problems).toEqual([
      "flat.webp was not opened: it unpacks from 2 KB to 49 megapixels, far more than any photo or logo does. Please choose another copy of it (saved as an ordinary PNG or JPG).",
    ]);
    expect((await stored(c.orderId)).photo_metadata ?? []).toEqual([]);
    // Nothing was charged: the whole hour's budget is left (its last slot is still free).
    expect(await spendAllBut("link", c.orderId, 0)).toBe(true);
  });
});
