import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { connectDb, disconnectDb, isDatabaseUnavailable } from "~/server/db.server";
import { OrderChange, OrderChangeMark } from "~/server/models/index.server";
import { recordOrderChange } from "~/server/models/order-change.server";
import { privatePort, startFerretDb, stopProcess } from "../support/processes";

// The orders' change log on a private FerretDB that this test stops while a change is noted, then starts again.
const dbPort = privatePort(10000);
let dir = "";
let db: ChildProcess | undefined;
const startDb = async () => {
  db = await startFerretDb(dbPort, dir);
};
afterAll(async () => {
  await disconnectDb();
  if (db) await stopProcess(db);
  if (dir) await rm(dir, { recursive: true, force: true });
});

it(
  "writes a change whose entry failed while the database was away once it is back, with the process's mark past it",
  { timeout: 90_000 },
  async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ferret-changes-"));
    await startDb();
    await connectDb(`mongodb://127.0.0.1:${dbPort}/changes`);
    await recordOrderChange(["order-before"]);

    // The database goes away: the entry cannot be written and the caller is told so.
    await stopProcess(db!);
    const failure = await recordOrderChange(["order-while-away"]).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure, "the entry was written with the database away").not.toBeNull();
    expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);

    // Back again: nothing else is noted, yet the change is written by the process itself (after 1 s, doubling).
    await startDb();
    await expect
      .poll(async () => OrderChange.countDocuments({ ids: "order-while-away" }), { timeout: 60_000, interval: 500 })
      .toBe(1);
    const entries = await OrderChange.find({}, { ids: 1 }).lean();
    const written = entries.find((e) => e.ids.includes("order-while-away"))!;
    const [processName, seq] = written._id.split(":");
    // A reader finds it: every entry up to the process's mark exists, and the mark has moved past it.
    const mark = await OrderChangeMark.findById(processName).lean();
    expect(mark?.seq).toBeGreaterThanOrEqual(Number(seq));
    for (let n = 1; n <= mark!.seq; n++) expect(entries.map((e) => e._id)).toContain(`${processName}:${n}`);
    // The change noted before the database went away was not written again.
    expect(entries.filter((e) => e.ids.includes("order-before"))).toHaveLength(1);
  },
);
