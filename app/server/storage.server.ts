import { createHash } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { access, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getEnv } from "./env.server";

export type StoredObject = { body: Uint8Array; contentType: string };
/** An object read as it arrives, never whole in memory (a download of many files). */
export type StoredStream = { body: Readable; contentType: string };
/** One stored object as a backup's manifest lists it: S3's ETag, or a folder file's SHA-256. */
export type ObjectEntry = { key: string; size: number; etag: string };

/** Where uploads live: S3 when S3_BUCKET is set, else a local folder (development only). */
export interface Storage {
  readonly kind: "s3" | "disk";
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  /** The object as a stream, or null when there is none. */
  open(key: string): Promise<StoredStream | null>;
  delete(key: string): Promise<void>;
  /** Deletes every object under a prefix such as `logos/{orderId}/` (privacy deletion). */
  deletePrefix(prefix: string): Promise<void>;
  /** Throws unless the bucket (or folder) answers now (/readyz). */
  check(): Promise<void>;
  /** Every stored object, in key order (a backup's manifest). */
  list(): Promise<ObjectEntry[]>;
}

/** Keys are made by the server: segments of letters, digits, dot, dash and underscore, never `..`. */
export function assertSafeKey(key: string) {
  if (!/^[a-zA-Z0-9_-]+(\/[a-zA-Z0-9._-]+)*\/?$/.test(key) || key.split("/").some((s) => s === "." || s === "..")) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}

export function s3Storage(options: {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}): Storage & { ensureBucket(): Promise<void> } {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: Boolean(options.endpoint),
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // S3-compatible servers (versitygw, MinIO) do not all speak the newer checksum headers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = options.bucket;
  /** The object's answer, its body not yet read; null when there is no such key. */
  const getObject = async (key: string) => {
    assertSafeKey(key);
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: key }));
    } catch (error) {
      if ((error as { name?: string }).name === "NoSuchKey") return null;
      throw error;
    }
  };
  const contentTypeOf = (out: { ContentType?: string }) => out.ContentType ?? "application/octet-stream";
  return {
    kind: "s3",
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch {
        await client.send(new CreateBucketCommand({ Bucket }));
      }
    },
    async put(key, body, contentType) {
      assertSafeKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async get(key) {
      const out = await getObject(key);
      return out && { body: await out.Body!.transformToByteArray(), contentType: contentTypeOf(out) };
    },
    async open(key) {
      const out = await getObject(key);
      return out && { body: out.Body as Readable, contentType: contentTypeOf(out) };
    },
    async delete(key) {
      assertSafeKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        // S3 answers a delete of a missing key with success; some compatible servers say NoSuchKey. Either way it is gone.
        if ((error as { name?: string }).name !== "NoSuchKey") throw error;
      }
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    async list() {
      const found: ObjectEntry[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? [])
          found.push({ key: o.Key!, size: o.Size ?? 0, etag: (o.ETag ?? "").replace(/"/g, "") });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async deletePrefix(prefix) {
      assertSafeKey(prefix);
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

export function diskStorage(root: string): Storage {
  const file = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    kind: "disk",
    async put(key, body, contentType) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, body);
      await writeFile(`${target}.meta.json`, JSON.stringify({ contentType }));
    },
    async get(key) {
      const target = file(key);
      try {
        const [body, meta] = await Promise.all([readFile(target), readFile(`${target}.meta.json`, "utf8")]);
        return { body: new Uint8Array(body), contentType: JSON.parse(meta).contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async open(key) {
      const target = file(key);
      try {
        const meta = await readFile(`${target}.meta.json`, "utf8");
        return { body: createReadStream(target), contentType: JSON.parse(meta).contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      const target = file(key);
      await rm(target, { force: true });
      await rm(`${target}.meta.json`, { force: true });
    },
    async deletePrefix(prefix) {
      await rm(file(prefix), { recursive: true, force: true });
    },
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
    },
    async list() {
      const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      const found: ObjectEntry[] = [];
      for (const entry of files) {
        if (!entry.isFile() || entry.name.endsWith(".meta.json")) continue;
        const full = path.join(entry.parentPath, entry.name);
        const body = await readFile(full);
        const key = path.relative(root, full).split(path.sep).join("/");
        found.push({ key, size: body.length, etag: `sha256:${createHash("sha256").update(body).digest("hex")}` });
      }
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

let storage: Storage | undefined;

export function getStorage(): Storage {
  if (!storage) {
    const env = getEnv();
    storage = env.S3_BUCKET
      ? s3Storage({
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        })
      : diskStorage(path.resolve(env.UPLOAD_DIR));
  }
  return storage;
}
