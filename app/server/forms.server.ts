import Busboy, { type BusboyInstance } from "@fastify/busboy";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/**
 * The one way an action reads its request body. Every body is bounded while it
 * streams, and every field name is bounded before Conform turns names into
 * objects and arrays (`a[99999999]=1` would otherwise allocate a 100-million-slot
 * array). Anything out of bounds is answered here, by a thrown Response with a
 * 4xx status and a plain sentence saying what the limit is:
 *
 *   readForm(request)                          a text form (urlencoded, or multipart without files), 64 KB
 *   readMultipartForm(request, { files, ... }) a form with uploads: per-file, per-field count and total limits
 *   readRawBody(request, { maxBytes })         a raw body (Stripe's webhook), bounded before its signature is checked
 *
 * An oversized file is not an error: it arrives as an empty File of type
 * FILE_TOO_LARGE (and a file beyond its field's count as FILE_OVER_COUNT), so
 * the rest of the form is kept and the page can say which file was refused.
 */

const KB = 1024;

/** A text form's whole body, and a multipart form's text field. */
export const TEXT_FORM_MAX_BYTES = 64 * KB;

/** Field names the app's forms use look like `email`, `brandColors[2].name`, `socialLinks.facebook`. */
export const FIELD_NAME_LIMITS = { maxLength: 100, maxDepth: 4, maxIndex: 100, maxFields: 500 } as const;

/** Markers on a File the reader refused to keep (see the module comment). */
export const FILE_TOO_LARGE = "application/x-too-large";
export const FILE_OVER_COUNT = "application/x-over-count";

export const FORM_MESSAGES = {
  notAForm:
    "This address takes a web form (application/x-www-form-urlencoded or multipart/form-data). Please use the form on our site.",
  brokenForm: "The form could not be read: it arrived incomplete or malformed. Please go back and send it again.",
  tooLarge: (bytes: number, hint = "Please shorten it and try again.") =>
    `This form is too large: we accept at most ${formatBytes(bytes)} per post. ${hint}`,
  fieldTooLarge: (bytes: number) =>
    `A text box in this form is too long: each one holds at most ${formatBytes(bytes)}.`,
  badFieldName: "The form has a field we can't accept. Please use the form on our site.",
  tooManyFields: (max: number) => `The form has too many fields (at most ${max}). Please use the form on our site.`,
  noFiles: "This form takes no files. Please use the form on our site.",
} as const;

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * KB) return `${Math.round((bytes / (1024 * KB)) * 10) / 10} MB`;
  return `${Math.round(bytes / KB)} KB`;
}

/** A refusal as the action's answer: a plain sentence the error page shows, with the status that names the problem. */
function formRefusal(status: 400 | 413 | 415, message: string): Response {
  // The body may be only partly read: scripts/server.mjs closes the connection after such an answer.
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

// A name is a key followed by `.key` or `[n]` segments: the grammar Conform parses, without `[]` (our forms never send it).
const NAME = /^[A-Za-z_][\w:-]*(?:\.[A-Za-z_][\w-]*|\[\d{1,3}\])*$/;
const SEGMENT = /\.[A-Za-z_][\w-]*|\[(\d{1,3})\]/g;
const FORBIDDEN_KEY = /(?:^|\.)(?:__proto__|constructor|prototype)(?=$|[.[])/;

/** Whether a posted field name is one Conform can turn into a small value: bounded length, depth and array index. */
export function isAcceptableFieldName(name: string): boolean {
  if (name.length === 0 || name.length > FIELD_NAME_LIMITS.maxLength || !NAME.test(name) || FORBIDDEN_KEY.test(name))
    return false;
  let depth = 0;
  for (const match of name.matchAll(SEGMENT)) {
    depth++;
    if (match[1] !== undefined && Number(match[1]) > FIELD_NAME_LIMITS.maxIndex) return false;
  }
  return depth <= FIELD_NAME_LIMITS.maxDepth;
}

class FieldCounter {
  private count = 0;
  constructor(private readonly max: number) {}
  /** Throws the refusal for a bad name or one field too many. */
  take(name: string) {
    if (!isAcceptableFieldName(name)) throw formRefusal(400, FORM_MESSAGES.badFieldName);
    if (++this.count > this.max) throw formRefusal(400, FORM_MESSAGES.tooManyFields(this.max));
  }
}

function mediaType(request: Request): string {
  return (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
}

/** The body as a stream that stops (without being consumed further) once it passes `maxBytes`. */
function boundedBody(request: Request, maxBytes: number, tooLarge: () => Response): ReadableStream<Uint8Array> | null {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return null;
  const reader = request.body.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch {
        controller.error(formRefusal(400, FORM_MESSAGES.brokenForm));
        return;
      }
      if (chunk.done) return controller.close();
      size += chunk.value.byteLength;
      // Never cancel the request stream: that would destroy the socket before we can answer.
      if (size > maxBytes) return controller.error(tooLarge());
      controller.enqueue(chunk.value);
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The raw body, up to `maxBytes` (413 past it). For bodies that are not forms, such as a signed webhook. */
export async function readRawBody(request: Request, options: { maxBytes: number }): Promise<string> {
  const tooLarge = () => formRefusal(413, FORM_MESSAGES.tooLarge(options.maxBytes));
  return new TextDecoder().decode(await readAll(boundedBody(request, options.maxBytes, tooLarge)));
}

export type ReadFormOptions = { maxBytes?: number; maxFields?: number };

/** A text form: urlencoded or multipart without files, bounded in size, field count and field names. */
export async function readForm(request: Request, options: ReadFormOptions = {}): Promise<FormData> {
  return readMultipartForm(request, { ...options, files: {} });
}

export type FileLimit = { maxBytes: number; maxCount: number };
/**
 * `tooLargeHint` follows the 413 message's limit: what to send instead (for uploads, the file limits).
 * `dropFiles`: every file is drained and left out, rather than refused (a refused admin post kept minus its files).
 */
export type MultipartOptions = ReadFormOptions & {
  files: Record<string, FileLimit>;
  tooLargeHint?: string;
  dropFiles?: boolean;
};

/**
 * A form that may carry files. Files are read one by one as they stream: a file
 * over its limit is drained and marked FILE_TOO_LARGE, a file beyond its field's
 * count is drained and marked FILE_OVER_COUNT, so at most the allowed files are
 * held in memory. The whole body stops at `maxBytes` (413).
 */
export async function readMultipartForm(request: Request, options: MultipartOptions): Promise<FormData> {
  const maxBytes = options.maxBytes ?? TEXT_FORM_MAX_BYTES;
  const fields = new FieldCounter(options.maxFields ?? FIELD_NAME_LIMITS.maxFields);
  const tooLarge = () => formRefusal(413, FORM_MESSAGES.tooLarge(maxBytes, options.tooLargeHint));
  const type = mediaType(request);

  if (type === "application/x-www-form-urlencoded") {
    const text = new TextDecoder().decode(await readAll(boundedBody(request, maxBytes, tooLarge)));
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(text)) {
      fields.take(name);
      form.append(name, value);
    }
    return form;
  }
  if (type !== "multipart/form-data") throw formRefusal(415, FORM_MESSAGES.notAForm);

  const body = boundedBody(request, maxBytes, tooLarge);
  if (!body) throw formRefusal(400, FORM_MESSAGES.brokenForm);
  try {
    return await readParts(request.headers.get("Content-Type") ?? "", body, options, fields);
  } catch (error) {
    if (error instanceof Response) throw error;
    throw formRefusal(400, FORM_MESSAGES.brokenForm);
  }
}

async function readParts(
  contentType: string,
  body: ReadableStream<Uint8Array>,
  options: MultipartOptions,
  fields: FieldCounter,
): Promise<FormData> {
  const counts = new Map<string, number>();
  const form = new FormData();
  for await (const part of multipartParts(contentType, body)) {
    fields.take(part.name);
    if (part.kind === "text") {
      if (part.truncated) throw formRefusal(413, FORM_MESSAGES.fieldTooLarge(TEXT_FORM_MAX_BYTES));
      form.append(part.name, part.value);
      continue;
    }
    if (options.dropFiles) {
      for await (const chunk of part.data) void chunk;
      continue;
    }
    const limit = options.files[part.name];
    if (!limit) throw formRefusal(400, FORM_MESSAGES.noFiles);
    const file = await readFilePart(part, limit, counts);
    if (file) form.append(part.name, file);
  }
  return form;
}

type TextPart = { kind: "text"; name: string; value: string; truncated: boolean };
type FilePart = { kind: "file"; name: string; filename: string; contentType: string; data: Readable };

/**
 * A multipart body's parts, in order, as they stream: each file's bytes are read from `data` before the next part
 * is parsed (the parser waits meanwhile). A text part holds at most TEXT_FORM_MAX_BYTES (`truncated` past it). A
 * malformed body throws the 400 refusal; the body's own refusal (413 past its bound) is thrown as it is. Parsed by
 * @fastify/busboy: Remix's parser took about 40 ms of the event loop for each 3 MB file, busboy about 3.
 */
async function* multipartParts(
  contentType: string,
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<TextPart | FilePart> {
  const broken = () => formRefusal(400, FORM_MESSAGES.brokenForm);
  let parser: BusboyInstance;
  try {
    parser = new Busboy({
      headers: { "content-type": contentType },
      // A part is a file when it names one (an empty name too: a file box left empty), whatever its type.
      isPartAFile: (_name, _type, filename) => filename !== undefined,
      limits: { fieldSize: TEXT_FORM_MAX_BYTES },
    });
  } catch {
    throw broken(); // no boundary, or not multipart
  }
  const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  const queue: (TextPart | FilePart)[] = [];
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  let reading = null as Readable | null;
  const fail = (error: unknown) => {
    failure ??= error instanceof Response ? error : broken();
    reading?.destroy(failure as Error); // a file being read stops with it
    notify();
  };
  parser.on("field", (name, value, _nameTruncated, truncated) => {
    queue.push({ kind: "text", name, value, truncated });
    notify();
  });
  parser.on("file", (name, data, filename, _encoding, type) => {
    data.on("error", fail);
    data.on("close", () => reading === data && (reading = null));
    reading = data;
    queue.push({ kind: "file", name, filename, contentType: type, data });
    notify();
  });
  parser.on("finish", () => {
    ended = true;
    notify();
  });
  parser.on("error", fail);
  source.on("error", fail);
  source.pipe(parser);
  try {
    for (;;) {
      if (failure) throw failure;
      const part = queue.shift();
      if (part) yield part;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // Stopped early (a refusal, or a body cut short): nothing more is read, and a late error goes nowhere.
    source.unpipe(parser);
    source.destroy();
    reading?.destroy();
    parser.on("error", () => undefined);
  }
}

async function readFilePart(part: FilePart, limit: FileLimit, counts: Map<string, number>): Promise<File | undefined> {
  const filename = part.filename;
  const seen = (counts.get(part.name) ?? 0) + 1;
  const keep = seen <= limit.maxCount;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of part.data as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (keep && size <= limit.maxBytes) chunks.push(chunk);
    else chunks.length = 0; // drained, never held
  }
  // A file input left empty still sends a part with no name and no bytes: not a file. (A name is its last segment:
  // the parser drops any folders sent before it, as RFC 7578 asks.)
  if (!filename || size === 0) return undefined;
  counts.set(part.name, seen);
  if (!keep) return new File([], filename, { type: FILE_OVER_COUNT });
  if (size > limit.maxBytes) return new File([], filename, { type: FILE_TOO_LARGE });
  return new File(chunks as BlobPart[], filename, { type: part.contentType });
}
