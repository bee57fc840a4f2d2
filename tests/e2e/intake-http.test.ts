import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { LIST_SHAPE_MESSAGE } from "~/domain/intake/schemas";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { APP_URL } from "../support/browser";

useAppDatabase();

/** Opens the e-mailed link over HTTP, as a browser with scripts off would; returns the intake cookie. */
async function openLink(token: string) {
  const r = await fetch(`${APP_URL}/intake-form?token=${token}`, { redirect: "manual" });
  expect(r.headers.get("Location")).toBe("/intake-form");
  return r.headers
    .getSetCookie()
    .find((c) => c.startsWith("__intake="))!
    .split(";")[0];
}
const postStep = (cookie: string, step: number, body: FormData | URLSearchParams) =>
  fetch(`${APP_URL}/intake-form/${step}`, { method: "POST", body, headers: { Cookie: cookie }, redirect: "manual" });
const reach = (orderId: string, step: number) =>
  IntakeSubmission.updateOne(
    { _id: orderId },
    { $set: { furthest_step: step }, $setOnInsert: { order_id: orderId } },
    { upsert: true },
  );
const html = (text: string) => text.replace(/&#x27;/g, "'").replace(/&amp;/g, "&");

describe("intake step posts over HTTP", () => {
  it("answers lists in the wrong shape on steps 3, 4, 5, 6, 8 and 10 with a 400 page that says so, never a 5xx", async () => {
    const { orderId, token } = await paidOrder();
    const cookie = await openLink(token);
    await reach(orderId, 10);
    const cases: [number, Record<string, string>][] = [
      [3, { servicesList: "x" }],
      [4, { "brandColors.name": "x" }],
      [4, { "photoMetadata[0]": "x" }],
      [5, { socialLinks: "x" }],
      [6, { testimonials: "x" }],
      [8, { "keyPoints[0].a": "x" }],
      [10, { "staffBios[0]": "x" }],
    ];
    for (const [step, body] of cases) {
      for (const intent of ["next", "stay", "autosave"]) {
        const r = await postStep(cookie, step, new URLSearchParams({ ...body, intent }));
        expect(r.status, `${step} ${JSON.stringify(body)} ${intent}`).toBe(400);
        if (intent !== "autosave") expect(html(await r.text())).toContain(LIST_SHAPE_MESSAGE);
        else await r.body?.cancel();
      }
    }
    expect((await fetch(`${APP_URL}/healthz`)).status).toBe(200);
  });

  it("answers an unknown step with the styled not-found page inside the site's shell, never an error page", async () => {
    const { token } = await paidOrder();
    const cookie = await openLink(token);
    for (const step of ["15", "0", "x"]) {
      const r = await fetch(`${APP_URL}/intake-form/${step}`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(r.status, step).toBe(404);
      const page = html(await r.text());
      expect(page).toContain("Oops! Page not found");
      expect(page).not.toContain("Unexpected Application Error!");
    }
  });

  it("shows a photo's preview from its small copy, served only with the order's own cookie", async () => {
    const { orderId, token } = await paidOrder();
    const cookie = await openLink(token);
    await reach(orderId, 4);
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#c84" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.set("intent", "stay");
    form.append("photos", new File([photo as BlobPart], "van.jpg", { type: "image/jpeg" }));
    expect((await postStep(cookie, 4, form)).status).toBe(303);

    const page = await (await fetch(`${APP_URL}/intake-form/4`, { headers: { Cookie: cookie } })).text();
    const src = new RegExp(`src="(/uploads/photos/${orderId}/[0-9a-f]{24}\\.thumb\\.webp)"`).exec(page)?.[1];
    expect(src).toBeTruthy();
    const thumb = await fetch(`${APP_URL}${src}`, { headers: { Cookie: cookie } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("Content-Type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(480);

    const other = await openLink((await paidOrder()).token);
    expect((await fetch(`${APP_URL}${src}`, { headers: { Cookie: other } })).status).toBe(404);
  });
});
