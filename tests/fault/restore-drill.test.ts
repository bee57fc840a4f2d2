import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { IntakeSubmission, Order } from "~/server/models/index.server";
import { action as uploadAction } from "~/routes/intake-form_.upload";
import { tokenCookie } from "../support/app-data";
import { postForm, startAppProcess, type AppProcess } from "../support/app-process";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { privatePort } from "../support/processes";
import { adminPages, INTAKE, PUBLIC } from "../support/seed-walk";

/**
 * The restore drill: the demo data of `npm run seed` with uploads, walked as every kind of visitor; then
 * `npm run backup`, the database dropped, `npm run restore` into the empty one, the app started again and
 * the same walk: every page answers as before, the admin's figures and CSV are the same, the intake links
 * open, the sessions and passwords still sign in, and the uploaded photo is served.
 */
// The app process and this one sign and derive with the same secrets (set before anything reads them).
const SECRETS = {
  SESSION_SECRET: "restore-drill-session-secret-0123456789",
  TOKEN_SECRET: "restore-drill-token-secret-9876543210abc",
  TWO_FACTOR_SECRET: "restore-drill-two-factor-secret-0123456",
};
Object.assign(process.env, SECRETS);
const db = useTestDatabase();
const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), "restore-drill-"));
const port = privatePort(19000);
let app: AppProcess | undefined;
afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});
const start = async () =>
  (app = await startAppProcess({ port, env: { MONGODB_URI: process.env.MONGODB_URI!, ...SECRETS } }));
const tsx = (script: string, args: string[] = []) =>
  run("node_modules/.bin/tsx", [script, ...args], {
    env: { ...process.env, APP_URL: `http://127.0.0.1:${port}` },
    timeout: 120_000,
  });

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let seeded: { admin: string; customer: string; intakeTokens: string[] };
let people: Record<string, string>;
let photoKey: string;
let orderIds: string[];

beforeAll(async () => {
  const out = (await tsx("scripts/seed.ts")).stdout;
  seeded = {
    admin: /admin: +admin@example\.test \/ (\S+)/.exec(out)![1],
    customer: /customer: +customer@example\.test \/ (\S+)/.exec(out)![1],
    intakeTokens: [...out.matchAll(/\/intake-form\?token=(\S+)/g)].map((m) => m[1]),
  };
  expect(seeded.intakeTokens).toHaveLength(3);
  orderIds = (await Order.find({}, { _id: 1 }).lean()).map((o) => o._id);
  expect(orderIds).toHaveLength(6); // one in every state

  // A photo on a paid order, sent as step 4's page sends it.
  const intake = await tokenCookie(seeded.intakeTokens[0]);
  const withIntake = await IntakeSubmission.find({}, { _id: 1 }).lean();
  expect(withIntake).toHaveLength(0);
  const paid = (await Order.findOne({ status: "paid" }).lean())!;
  await IntakeSubmission.create({ _id: paid._id, order_id: paid._id, furthest_step: 4 });
  const form = new FormData();
  form.append("photos", new File([PNG], "shop.png", { type: "image/png" }));
  await uploadAction({
    request: new Request("http://localhost/intake-form/upload", {
      method: "POST",
      body: form,
      headers: { Cookie: intake },
    }),
    params: {},
    context: {},
  });
  const photos = (await IntakeSubmission.findById(paid._id).lean())!.photo_metadata as { key: string }[];
  photoKey = photos[0].key;

  people = {
    visitor: "",
    "link holder": intake,
    customer: (await signedInUser()).cookie,
    admin: (await signedInUser({ admin: true })).cookie,
  };
}, 180_000);

/** What the walk saw: each page's status per person, the admin's figures and CSV, links, sign-ins, the photo. */
async function walk(url: string) {
  const seen: Record<string, unknown> = {};
  const get = (p: string, cookie: string) =>
    fetch(`${url}${p}`, { redirect: "manual", headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(30_000) });
  for (const [role, cookie] of Object.entries(people))
    for (const p of [...PUBLIC, ...INTAKE, ...adminPages(orderIds)])
      seen[`${role} ${p}`] = (await get(p, cookie)).status;

  const admin = await (await get("/admin", people.admin)).text();
  const text = admin.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  seen.figures = text.slice(text.indexOf("Total Revenue"), text.indexOf("Avg Delivery") + 60);
  seen.csv = await (await get("/admin/orders.csv", people.admin)).text();
  for (const token of seeded.intakeTokens) {
    const opened = await get(`/intake-form?token=${token}`, "");
    seen[`intake link ${token.slice(0, 6)}`] = `${opened.status} ${opened.headers.get("location")}`;
  }
  for (const [email, password] of [
    ["customer@example.test", seeded.customer],
    ["admin@example.test", seeded.admin],
  ]) {
    const signedIn = await postForm(`${url}/auth`, { intent: "sign-in", email, password });
    seen[`sign in ${email}`] = `${signedIn.status} ${signedIn.headers.get("location")}`;
  }
  const photo = await get(`/uploads/${photoKey}`, people["link holder"]);
  seen.photo = `${photo.status} ${photo.headers.get("content-type")} ${(await photo.arrayBuffer()).byteLength > 0}`;
  return seen;
}

it(
  "restores a backup into an empty database, and the site answers every page as before",
  { timeout: 600_000 },
  async () => {
    await start();
    const before = await walk(app!.url);
    expect(before.figures).toMatch(/^Total Revenue/);
    expect(before["sign in customer@example.test"]).toBe("303 /dashboard");
    expect(String(before.photo)).toMatch(/^200 image\//);

    const backedUp = await tsx("scripts/backup.ts", [dir]);
    expect(backedUp.stdout).toMatch(/^Backed up \d+ documents in \d+ collections of t_/m);
    const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8"));
    expect(manifest.collections.orders).toBe(6);
    expect(manifest.uploads.objects.map((o: { key: string }) => o.key)).toContain(photoKey);
    const name = db().connection.db!.databaseName;
    // mongodump's layout: BSON per collection, its indexes in the metadata beside it.
    expect(existsSync(path.join(dir, name, "orders.bson"))).toBe(true);
    const metadata = JSON.parse(readFileSync(path.join(dir, name, "orders.metadata.json"), "utf8"));
    expect(metadata.collectionName).toBe("orders");
    expect(metadata.indexes.map((i: { name: string }) => i.name)).toContain("status_1_created_at_-1__id_-1");

    await app!.stop();
    await db().connection.dropDatabase();
    const restored = await tsx("scripts/restore.ts", [dir]);
    expect(restored.stdout).toMatch(/^Restored \d+ documents/m);
    // A second restore meets a database that is no longer empty, and refuses.
    const again = await tsx("scripts/restore.ts", [dir]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(again?.code).toBe(1);
    expect(again?.stderr).toContain("is not empty");

    await start();
    const after = await walk(app!.url);
    expect(after).toEqual(before);
  },
);
