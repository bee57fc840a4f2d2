import { createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { DAY_MS } from "~/domain/dates";
import { FORM_KEY_FIELD, FORM_KEY_PATTERN } from "~/domain/form-key";
import { getEnv } from "~/server/env.server";
import { errorMessage, log } from "~/server/log.server";
import { MAX_PHOTOS } from "~/domain/intake/branding";
import { LOGO_MAX_BYTES, PHOTO_MAX_BYTES } from "./uploads.server";

/**
 * A step-4 file sent in ranged parts (a photo on a satellite link that drops at 90% does not
 * start again from 0). The page sends the file's bytes from an offset, under the file's form key; the server
 * appends them, as they stream, to a part file under the intake link's order (never a posted id, so a key cannot
 * reach another order's part), and says how much it has. After a drop the page asks how much arrived and sends
 * the rest. Once the part holds the whole file, it goes through the same checks as a file posted whole (the
 * route: size, type, decoding, the link's and address's pixel budgets, the photo cap, stored once per key).
 * Memory stays bounded: parts stream to disk, and only a whole file within its limit is read back.
 */

type Field = "logo" | "photos";
const LIMIT: Record<Field, number> = { logo: LOGO_MAX_BYTES, photos: PHOTO_MAX_BYTES };
/** Files of one order on their way at once: a logo and the photo cap (each at most its limit on disk). */
const MAX_OPEN_PARTS = MAX_PHOTOS + 1;
/** A part untouched this long was abandoned (the page closed, the file cancelled): it is deleted. */
export const ABANDONED_PART_MS = DAY_MS;
const SWEEP_EVERY_MS = 10 * 60_000;

/** A refusal in words, with its HTTP status. */
export class PartRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly received?: number,
  ) {
    super(message);
  }
}

export const PART_MESSAGES = {
  badKey: "Please choose the file again: its upload key is not valid.",
  badField: "Please upload a logo or a photo.",
  badSize: "Please choose the file again: its size was not sent.",
  badOffset: "That part of the file does not follow what has arrived.",
  tooMany: "Too many files are on their way at once. Please wait for them to finish.",
  overSize: "More was sent than the file's size.",
  busy: "This file is still arriving from an earlier try. It is sent again shortly.",
} as const;

/** What a part request names: the file's form key, its field, name and whole size, and where this part starts. */
export type PartQuery = { key: string; field: Field; name: string; size: number; offset: number };

const partsDir = () => `${path.resolve(getEnv().UPLOAD_DIR)}-parts`;
const orderDir = (orderId: string) => path.join(partsDir(), orderId.replace(/[^A-Za-z0-9_-]/g, "_"));
const partPath = (orderId: string, q: Pick<PartQuery, "key" | "field" | "size">) =>
  path.join(orderDir(orderId), `${q.key}.${q.field}.${q.size}.part`);

const wholeNumber = (value: string | null) => (value !== null && /^\d{1,10}$/.test(value) ? Number(value) : null);

/** The file's form key from a query, or a 400. */
export function partKey(url: URL): string {
  const key = url.searchParams.get("key") ?? "";
  if (!FORM_KEY_PATTERN.test(key)) throw new PartRefusal(PART_MESSAGES.badKey, 400);
  return key;
}

/** A part request's query, checked: the key's form, a known field, a whole size within the field's limit, an offset within it. */
export function partQuery(url: URL): PartQuery {
  const key = partKey(url);
  const field = url.searchParams.get("field");
  if (field !== "logo" && field !== "photos") throw new PartRefusal(PART_MESSAGES.badField, 400);
  const name = (url.searchParams.get("name") ?? "").slice(0, 200) || "file";
  const size = wholeNumber(url.searchParams.get("size"));
  const offset = wholeNumber(url.searchParams.get("offset"));
  if (size === null || size < 1) throw new PartRefusal(PART_MESSAGES.badSize, 400);
  if (size > LIMIT[field])
    throw new PartRefusal(`${name.slice(0, 80)} is larger than ${LIMIT[field] / 1024 / 1024} MB.`, 413);
  if (offset === null || offset > size) throw new PartRefusal(PART_MESSAGES.badOffset, 400);
  return { key, field, name, size, offset };
}

/** The form a finished file is checked and stored with: its key and the file, as a whole upload posts them. */
export function partForm(key: string, field?: Field, file?: File): FormData {
  const form = new FormData();
  form.append(FORM_KEY_FIELD, key);
  if (field && file) form.append(field, file);
  return form;
}

/** How many bytes of the file under `key` have arrived (0 when none). */
export async function receivedBytes(orderId: string, key: string): Promise<number> {
  const found = await findPart(orderId, key);
  return found ? found.size : 0;
}

async function findPart(orderId: string, key: string): Promise<{ file: string; size: number } | null> {
  const names = await readdir(orderDir(orderId)).catch(() => [] as string[]);
  const name = names.find((n) => n.startsWith(`${key}.`));
  if (!name) return null;
  const file = path.join(orderDir(orderId), name);
  return { file, size: (await stat(file).catch(() => null))?.size ?? 0 };
}

/** Parts being written now, by path: one writer per part (a resend waits until the dropped try's stream has ended). */
const writing = new Set<string>();

/**
 * Appends `body` (the file's bytes from `q.offset`) to the order's part of `q.key`, as it streams, and returns the
 * file once it is whole (null while bytes are missing). The offset must be what has arrived (409 with the count
 * otherwise); bytes past the stated size are refused and the part deleted.
 */
export async function receivePart(
  orderId: string,
  q: PartQuery,
  body: ReadableStream<Uint8Array> | null,
): Promise<File | null> {
  const file = partPath(orderId, q);
  if (writing.has(file)) throw new PartRefusal(PART_MESSAGES.busy, 503);
  writing.add(file);
  try {
    const existing = await findPart(orderId, q.key);
    if (existing && existing.file !== file) throw new PartRefusal(PART_MESSAGES.badOffset, 409, existing.size);
    const received = existing?.size ?? 0;
    if (q.offset !== received) throw new PartRefusal(PART_MESSAGES.badOffset, 409, received);
    if (!existing) await startPart(orderId);
    const total = await append(file, body, q.size - received);
    if (total === null) {
      await rm(file, { force: true });
      throw new PartRefusal(PART_MESSAGES.overSize, 400);
    }
    if (received + total < q.size) return null;
    return new File([await readFile(file)], q.name, { type: "application/octet-stream" });
  } finally {
    writing.delete(file);
  }
}

/** A new part: within the order's count of files on their way, and a moment to delete abandoned ones. */
async function startPart(orderId: string) {
  await sweepAbandonedParts();
  await mkdir(orderDir(orderId), { recursive: true });
  const open = (await readdir(orderDir(orderId))).filter((n) => n.endsWith(".part"));
  if (open.length >= MAX_OPEN_PARTS) throw new PartRefusal(PART_MESSAGES.tooMany, 429);
}

/**
 * Writes the stream to the end of `file`, at most `room` bytes; returns how many were written, or null when the
 * stream held more than `room`.
 */
async function append(file: string, body: ReadableStream<Uint8Array> | null, room: number): Promise<number | null> {
  const out = createWriteStream(file, { flags: "a" });
  const closed = new Promise<void>((resolve, reject) => {
    out.on("close", resolve);
    out.on("error", reject);
  });
  let written = 0;
  let over = false;
  try {
    const reader = body?.getReader();
    while (reader) {
      // A stream that breaks (the link dropped) ends the part here: what arrived is kept for the resend.
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) break;
      const value = chunk.value;
      if (written + value.byteLength > room) {
        over = true;
        await reader.cancel().catch(() => undefined);
        break;
      }
      written += value.byteLength;
      if (!out.write(value)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
  } finally {
    out.end();
    await closed;
  }
  return over ? null : written;
}

/** Deletes the order's part of `key` (a cancelled file, or one checked and stored or refused). */
export async function deletePart(orderId: string, key: string) {
  const found = await findPart(orderId, key);
  if (found) await rm(found.file, { force: true });
}

let lastSweep = 0;
/** Deletes parts untouched for ABANDONED_PART_MS (at most once every ten minutes); a failure is logged, never thrown. */
export async function sweepAbandonedParts(now = Date.now(), force = false) {
  if (!force && now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  try {
    for (const order of await readdir(partsDir()).catch(() => [] as string[])) {
      const dir = path.join(partsDir(), order);
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const file = path.join(dir, name);
        const touched = (await stat(file).catch(() => null))?.mtimeMs;
        if (touched !== undefined && now - touched > ABANDONED_PART_MS && !writing.has(file))
          await rm(file, { force: true });
      }
    }
  } catch (error) {
    log("warn", "upload.sweep_failed", { reason: errorMessage(error) });
  }
}
