import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskStorage, s3Storage, type Storage } from "~/server/storage.server";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

const s3 = s3Storage({
  bucket: process.env.S3_BUCKET!,
  endpoint: process.env.S3_ENDPOINT,
  region: process.env.S3_REGION!,
  accessKeyId: process.env.S3_ACCESS_KEY_ID,
  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY,
});
let diskDir = "";

afterAll(async () => {
  if (diskDir) await rm(diskDir, { recursive: true, force: true });
});

async function adapters(): Promise<[string, Storage][]> {
  await s3.ensureBucket();
  diskDir ||= await mkdtemp(path.join(tmpdir(), "uploads-"));
  return [
    ["S3 (versitygw)", s3],
    ["disk", diskStorage(diskDir)],
  ];
}

describe("storage adapters", () => {
  it("store, read back with the content type, and delete objects", async () => {
    for (const [name, storage] of await adapters()) {
      const prefix = `logos/order-${Date.now()}/`;
      await storage.put(`${prefix}logo.png`, png, "image/png");
      await storage.put(`${prefix}other.png`, png, "image/png");
      const got = await storage.get(`${prefix}logo.png`);
      expect(got, name).not.toBeNull();
      expect(Array.from(got!.body), name).toEqual(Array.from(png));
      expect(got!.contentType, name).toBe("image/png");

      await storage.delete(`${prefix}logo.png`);
      expect(await storage.get(`${prefix}logo.png`), name).toBeNull();
      await storage.delete(`${prefix}logo.png`); // deleting what is already gone is not an error (data deletion runs twice)
      await storage.deletePrefix(prefix);
      expect(await storage.get(`${prefix}other.png`), name).toBeNull();
    }
  });

  it("refuses keys that could leave their folder", async () => {
    for (const [, storage] of await adapters()) {
      await expect(storage.put("../etc/passwd", png, "image/png")).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.get("photos/a/../../x")).rejects.toThrow(/Unsafe storage key/);
    }
  });
});
