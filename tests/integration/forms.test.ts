import { describe, expect, it } from "vitest";
import {
  FILE_OVER_COUNT,
  FILE_TOO_LARGE,
  FORM_MESSAGES,
  isAcceptableFieldName,
  readForm,
  readRawBody,
} from "~/server/forms.server";
import { MAX_PHOTOS } from "~/domain/intake/branding";
import { PHOTO_MAX_BYTES, readStepForm, STEP_FORM_MAX_BYTES } from "~/server/intake/uploads.server";

/** The bounded form reader on its own: what it keeps, what it marks, and what it refuses with which status. */

async function refusal(promise: Promise<unknown>): Promise<{ status: number; text: string }> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, text: await thrown.text() };
    throw thrown;
  }
  throw new Error("expected a refusal");
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("field names", () => {
  it.each([
    "email",
    "addOns",
    "fax_number",
    "brandColors[2]",
    "servicesList[0].name",
    "photoMetadata[11].altText",
    "socialLinks.facebook",
    "__INTENT__",
    "a[100]",
  ])("accepts %s", (name) => expect(isAcceptableFieldName(name)).toBe(true));
  it.each([
    "",
    "a[101]",
    "a[99999999]",
    `a${"[0]".repeat(5)}`,
    `a${".b".repeat(2000)}`,
    "a[]",
    "[0]",
    "a..b",
    "a[-1]",
    "__proto__",
    "a.__proto__",
    "constructor",
    "a.prototype.x",
    "x".repeat(101),
    "a b",
    "a[0",
  ])("refuses %j", (name) => expect(isAcceptableFieldName(name)).toBe(false));
});

describe("readForm", () => {
  it("reads a urlencoded form, repeated names included", async () => {
    const form = await readForm(post("a=1&addOns=x&addOns=y", { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(form.getAll("addOns")).toEqual(["x", "y"]);
  });

  it("refuses a file on a text form with 400", async () => {
    const body = new FormData();
    body.set("logo", new File(["x"], "x.png", { type: "image/png" }));
    expect(await refusal(readForm(post(body)))).toEqual({ status: 400, text: FORM_MESSAGES.noFiles });
  });

  it("stops a streamed body past the limit without reading the rest", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x61));
      },
    });
    const res = await refusal(readForm(post(stream, { "Content-Type": "application/x-www-form-urlencoded" })));
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(200_000);
  });

  it("refuses a declared length over the limit before reading anything", async () => {
    const request = post("a=1", {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": String(10 * 1024 * 1024),
    });
    expect((await refusal(readForm(request))).status).toBe(413);
  });
});

describe("readRawBody", () => {
  it("returns the text under the limit and refuses it over", async () => {
    expect(await readRawBody(post("hello"), { maxBytes: 10 })).toBe("hello");
    expect((await refusal(readRawBody(post("hello world"), { maxBytes: 10 }))).status).toBe(413);
  });
});

describe("readStepForm", () => {
  it("accepts the longest text step a customer can fill in (50 staff bios at their limits), not only 64 KB", async () => {
    const body = new URLSearchParams({ intent: "stay" });
    for (let i = 0; i < 50; i++) {
      body.set(`staffBios[${i}].name`, "N".repeat(100));
      body.set(`staffBios[${i}].role`, "R".repeat(100));
      body.set(`staffBios[${i}].bio`, "é".repeat(1000));
      body.set(`staffBios[${i}].headshotUrl`, `https://example.com/${"p".repeat(1900)}`);
    }
    const form = await readStepForm(post(body, { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(form.get("staffBios[49].bio")).toBe("é".repeat(1000));
  });
});

describe("readStepForm (step 4's uploads)", () => {
  it("keeps at most the photo cap, marks the rest, and marks a photo over its size without holding it", async () => {
    const body = new FormData();
    body.set("intent", "stay");
    for (let i = 0; i < MAX_PHOTOS + 2; i++)
      body.append("photos", new File([new Uint8Array(100)], `p${i}.png`, { type: "image/png" }));
    const form = await readStepForm(post(body));
    const photos = form.getAll("photos") as File[];
    expect(photos.filter((f) => f.type === "image/png")).toHaveLength(MAX_PHOTOS);
    expect(photos.filter((f) => f.type === FILE_OVER_COUNT)).toHaveLength(2);
    expect(form.get("intent")).toBe("stay");

    const big = new FormData();
    big.append("photos", new File([new Uint8Array(PHOTO_MAX_BYTES + 1)], "big.png", { type: "image/png" }));
    const [marked] = (await readStepForm(post(big))).getAll("photos") as File[];
    expect(marked).toMatchObject({ name: "big.png", type: FILE_TOO_LARGE, size: 0 });
  });

  it("refuses a post larger than the step's total with 413 and says the limit", async () => {
    const request = post("x", {
      "Content-Type": "multipart/form-data; boundary=b",
      "Content-Length": String(STEP_FORM_MAX_BYTES + 1),
    });
    const res = await refusal(readStepForm(request));
    expect(res.status).toBe(413);
    expect(res.text).toMatch(
      /^This form is too large: we accept at most 102 MB per post\. Please go back and choose fewer or smaller files\. Up to 12 photos/,
    );
  });
});
