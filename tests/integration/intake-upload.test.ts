import { fork } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { HOUR_MS } from "~/domain/dates";
import { IntakeSubmission, RateLimitHit } from "~/server/models/index.server";
import { consumeRateLimit, rateLimitSubject } from "~/server/rate-limit.server";
import { PIXEL_LIMITS } from "~/server/intake/uploads.server";
import { ABANDONED_PART_MS, sweepAbandonedParts } from "~/server/intake/parts.server";
import { action, loader, UPLOAD_BURST, UPLOADS_TOO_FAST } from "~/routes/intake-form_.upload";
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

  it("takes one link's files in turn, and turns a flood away unread with 429 and a message; other links go on", async () => {
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

  it("turns an address away with 429 past 120 upload requests a minute, before its link is even looked up", async () => {
    const c = await customer();
    const address = "10.35.7.7";
    // Each try names no link: the first 120 are sent to the link's home page; the next is not looked at.
    for (let i = 0; i < UPLOAD_BURST.max; i++)
      expect(status(await upload("", one("logo", file("x.png")), address))).toBe(302);
    const refused = await upload(c.cookie, one("logo", file("x.png")), address);
    expect(refused.status).toBe(429);
    expect(refused.data?.problems).toEqual([UPLOADS_TOO_FAST]);
    // Another address, with the same link, goes on.
    expect(status(await upload(c.cookie, one("logo", file("x.png")), "10.35.7.8"))).toBe(200);
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
    const get = new Request("http://localhost/intake-form/upload", { headers: { Cookie: ready.cookie } });
    expect((await loader({ request: get, params: {}, context: {} })).status).toBe(405);
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

/**
 * The image worker this test process started: our child running scripts/image-worker.mjs, and the nice values of
 * its threads (Linux keeps one per thread: the decoding runs on libvips' and libuv's, not the main one).
 */
function imageWorker() {
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const line = readFileSync(`/proc/${entry}/stat`, "utf8");
      const stat = line.slice(line.lastIndexOf(")") + 2).split(" "); // state, ppid, ...; the nice value 16th
      const ours = Number(stat[1]) === process.pid;
      if (ours && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("image-worker.mjs"))
        return { pid: Number(entry), nice: Number(stat[16]), threadNices: threadNices(Number(entry)) };
    } catch {
      // gone meanwhile
    }
  }
  return null;
}
/** Each thread's name and nice value, as "libvips worker 19". */
function threadNices(pid: number) {
  return readdirSync(`/proc/${pid}/task`).flatMap((thread) => {
    try {
      const line = readFileSync(`/proc/${pid}/task/${thread}/stat`, "utf8");
      const name = readFileSync(`/proc/${pid}/task/${thread}/comm`, "utf8").trim();
      return [`${name} ${line.slice(line.lastIndexOf(")") + 2).split(" ")[16]}`];
    } catch {
      return []; // ended meanwhile
    }
  });
}
const gone = (pid: number) => !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
/** Polls `state` until it holds (the state that matters, never the clock); fails after 30 s. */
async function until(state: () => boolean | Promise<boolean>) {
  for (const started = Date.now(); !(await state()); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() - started > 30_000) throw new Error("the state never came");
}

describe("the image worker: a process of its own, at the lowest priority, one image at a time across the app", () => {
  const NOT_PROCESSED = "could not be processed just now. Please try again, or continue without it.";

  it("answers a file whose worker died with a message (never a 5xx), and the next file gets a new worker", async () => {
    const c = await customer();
    expect((await upload(c.cookie, one("photos", file("first.png")))).data?.problems).toEqual([]);
    const worker = imageWorker()!;
    expect(worker.nice).toBe(19);
    // The threads that decoded it too (before, only the main thread was lowered: the decoding ran at 0).
    expect(worker.threadNices.some((t) => t.startsWith("libvips worker"))).toBe(true);
    expect(worker.threadNices.filter((t) => !t.endsWith(" 19"))).toEqual([]);
    process.kill(worker.pid, "SIGSTOP"); // so the next file is still with it when it dies
    const address = "10.35.0.9";
    const reply = upload(c.cookie, one("photos", file("shop.png")), address);
    // Its pixels are charged (the address's budget last) just before the job goes to the worker.
    const charged = `${rateLimitSubject(PIXEL_LIMITS.address, address)}:${Math.floor(Date.now() / HOUR_MS)}`;
    await until(async () => Boolean(await RateLimitHit.exists({ key: charged })));
    process.kill(worker.pid, "SIGKILL");
    expect(await reply).toEqual({ status: 200, data: { problems: [`shop.png ${NOT_PROCESSED}`] } });

    expect((await upload(c.cookie, one("photos", file("van.png")))).data?.problems).toEqual([]);
    expect(imageWorker()?.pid).not.toBe(worker.pid);
    const photos = (await stored(c.orderId)).photo_metadata as { fileName: string }[];
    expect(photos.map((p) => p.fileName)).toEqual(["first.png", "van.png"]);
  });

  it("refuses a file past the line's bound at once with 503 and a message, and answers a hung worker's file", async () => {
    const links = await Promise.all(Array.from({ length: 5 }, () => customer()));
    expect((await upload(links[0].cookie, one("logo", file("warm.png")))).data?.problems).toEqual([]);
    const worker = imageWorker()!;
    process.kill(worker.pid, "SIGSTOP"); // the worker hangs on the first image it is given
    // Ten files from five links (each link sends two at a time): one is decoded, eight wait, one is refused.
    const replies = links.flatMap((c, i) => [0, 1].map((n) => upload(c.cookie, one("photos", file(`p${i}-${n}.png`)))));
    const refused = await Promise.race(replies);
    expect(refused).toEqual({
      status: 503,
      data: {
        problems: [
          expect.stringMatching(
            /^p\d-\d\.png was not added: many images are being processed just now\. Please add it again in a minute\.$/,
          ),
        ],
      },
    });
    // The hung worker is killed after its job's time (22 s for a small image); the rest go on with a new one.
    const answers = (await Promise.all(replies)).map((r) => `${r.status} ${r.data?.problems?.join(" ") ?? ""}`);
    expect(answers.filter((a) => a === "200 ").length).toBe(8);
    expect(answers.filter((a) => a.startsWith("200 ") && a.endsWith(NOT_PROCESSED)).length).toBe(1);
    expect(gone(worker.pid)).toBe(true);
    expect(imageWorker()?.pid).not.toBe(worker.pid);
  });

  it("leaves when the process that started it goes, however it went (its IPC channel closes)", async () => {
    const child = fork("scripts/image-worker.mjs", [], {
      execArgv: [],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.disconnect();
    expect(await exited).toBe(0);
  });
});

describe("a step-4 file sent in ranged parts (a drop does not start it again from 0)", () => {
  const KEY = "part-key-photo-00000001";
  const photo = async () =>
    new Uint8Array(
      await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2a6" } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    );
  const query = (q: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
  const call = async (cookie: string, method: string, q: Record<string, string | number>, body?: BodyInit) => {
    const request = new Request(`http://localhost/intake-form/upload?${query(q)}`, {
      method,
      body,
      headers: { Cookie: cookie, "x-client-address": "10.35.0.9", "Content-Type": "application/octet-stream" },
      ...(body ? { duplex: "half" } : {}),
    });
    const args = { request, params: {}, context: {} };
    try {
      return await read(method === "GET" ? await loader(args) : await action(args));
    } catch (thrown) {
      return read(thrown as Response);
    }
  };
  type PartReply = Reply & { data?: { problems?: string[]; received?: number } };
  const put = (cookie: string, bytes: Uint8Array, offset: number, body: BodyInit, extra = {}) =>
    call(
      cookie,
      "PUT",
      { key: KEY, field: "photos", name: "shop.png", size: bytes.byteLength, offset, ...extra },
      body,
    );
  const asked = async (cookie: string, key = KEY) => ((await call(cookie, "GET", { key })) as PartReply).data;
  /** A body that sends `bytes` and then breaks, as a link that drops mid-way. */
  const cutAfter = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (bytes.byteLength) controller.enqueue(bytes);
        else controller.error(new Error("the link dropped"));
        bytes = new Uint8Array(0);
      },
    });

  it("keeps what arrived before a cut, says how much, and stores the file once the rest is sent", async () => {
    const c = await customer();
    const bytes = await photo();
    const cut = Math.floor(bytes.byteLength * 0.9);
    const first = await put(c.cookie, bytes, 0, cutAfter(bytes.slice(0, cut)));
    expect((first as PartReply).data).toEqual({ received: cut }); // an answer no page reads: the link is down
    expect(await asked(c.cookie)).toEqual({ received: cut });
    expect((await stored(c.orderId)).photo_metadata ?? []).toEqual([]);
    const rest = await put(c.cookie, bytes, cut, bytes.slice(cut));
    expect([rest.status, rest.data?.problems]).toEqual([200, []]);
    const photos = (await stored(c.orderId)).photo_metadata as { fileName: string }[];
    expect(photos.map((p) => p.fileName)).toEqual(["shop.png"]);
    // The answer of the last part lost: asking again gives the stored answer, and a resend stores nothing twice.
    expect(await asked(c.cookie)).toEqual({ problems: [] });
    expect((await put(c.cookie, bytes, 0, bytes)).data?.problems).toEqual([]);
    expect(((await stored(c.orderId)).photo_metadata as unknown[]).length).toBe(1);
  });

  it("cancels a file: its part is deleted, and nothing is stored; an abandoned part is deleted after a day", async () => {
    const c = await customer();
    const bytes = await photo();
    expect((await put(c.cookie, bytes, 0, bytes.slice(0, 100))).data).toEqual({ received: 100 });
    expect((await call(c.cookie, "DELETE", { key: KEY })).status).toBe(200);
    expect(await asked(c.cookie)).toEqual({ received: 0 });
    expect((await stored(c.orderId)).photo_metadata ?? []).toEqual([]);
    // A part left behind (the page closed) is deleted once it is a day old.
    await put(c.cookie, bytes, 0, bytes.slice(0, 100));
    await sweepAbandonedParts(Date.now() + ABANDONED_PART_MS / 2, true);
    expect(await asked(c.cookie)).toEqual({ received: 100 });
    await sweepAbandonedParts(Date.now() + ABANDONED_PART_MS + 60_000, true);
    expect(await asked(c.cookie)).toEqual({ received: 0 });
  });

  it("refuses hostile offsets, sizes and keys with a 4xx and a message, and keeps each order's parts to itself", async () => {
    const c = await customer();
    const bytes = await photo();
    await put(c.cookie, bytes, 0, bytes.slice(0, 100));
    const statusOf = async (reply: Promise<Reply>) => (await reply).status;
    // An offset that does not follow what arrived: 409 with the count, nothing appended.
    const gap = (await put(c.cookie, bytes, 200, bytes.slice(200))) as PartReply;
    expect([gap.status, gap.data?.received]).toEqual([409, 100]);
    expect(await statusOf(put(c.cookie, bytes, 50, bytes.slice(50)))).toBe(409);
    // Offsets and sizes that are not whole numbers, past the size, or past the file limits.
    expect(await statusOf(put(c.cookie, bytes, -1, "x"))).toBe(400);
    expect(await statusOf(put(c.cookie, bytes, bytes.byteLength + 1, "x"))).toBe(400);
    expect(await statusOf(put(c.cookie, bytes, 0, "x", { size: "1e9" }))).toBe(400);
    const huge = (await put(c.cookie, bytes, 0, "x", { size: 8 * 1024 * 1024 + 1 })) as PartReply;
    expect([huge.status, huge.data?.problems]).toEqual([413, ["shop.png is larger than 8 MB."]]);
    expect((await put(c.cookie, bytes, 0, "x", { field: "logo", size: 5 * 1024 * 1024 + 1 })).status).toBe(413);
    expect(await statusOf(put(c.cookie, bytes, 0, "x", { field: "other" }))).toBe(400);
    expect(await statusOf(put(c.cookie, bytes, 0, "x", { key: "../../etc/passwd-aaaaaaaaaa" }))).toBe(400);
    expect((await call(c.cookie, "GET", { key: "short" })).status).toBe(400);
    // More bytes than the stated size: refused, and the part is deleted.
    const over = await put(c.cookie, bytes, 100, new Uint8Array(bytes.byteLength));
    expect([over.status, over.data?.problems]).toEqual([400, ["More was sent than the file's size."]]);
    expect(await asked(c.cookie)).toEqual({ received: 0 });
    // Another order's link cannot see or add to this order's part under the same key.
    await put(c.cookie, bytes, 0, bytes.slice(0, 100));
    const other = await customer();
    expect(await asked(other.cookie)).toEqual({ received: 0 });
    expect((await put(other.cookie, bytes, 100, bytes.slice(100))).status).toBe(409);
    expect(await asked(c.cookie)).toEqual({ received: 100 });
    // Without the link, or before step 4 is open: nothing is kept.
    expect(await statusOf(put("", bytes, 0, bytes))).toBeLessThan(500);
    const early = await customer(2);
    expect(await statusOf(put(early.cookie, bytes, 0, bytes))).toBe(409);
    expect(await asked(early.cookie)).toEqual({ received: 0 });
  });

  it("checks a whole file as a file posted whole: its type, and the photo cap of files on their way", async () => {
    const c = await customer();
    const fake = new TextEncoder().encode("not an image at all");
    const reply = await put(c.cookie, fake, 0, fake);
    expect(reply.data?.problems).toEqual(["shop.png is not a PNG, JPG, WebP or GIF image."]);
    expect(await asked(c.cookie)).toEqual({ received: 0 });
    const bytes = await photo();
    const keys = Array.from({ length: 14 }, (_, i) => `part-key-many-${String(i).padStart(9, "0")}`);
    const replies = [];
    for (const key of keys) replies.push((await put(c.cookie, bytes, 0, bytes.slice(0, 10), { key })).status);
    expect(replies).toEqual([...keys.slice(0, 13).map(() => 200), 429]);
  });
});
