import mongoose from "mongoose";
import type { StoredSubmission } from "~/domain/intake/data";
import { claimOnce } from "~/server/db.server";
import { IntakeSubmission, OnceKey } from "~/server/models/index.server";

/*
 * The intake draft's write turns (ARCHITECTURE rule 7 on FerretDB, which makes no read-modify-write
 * atomic): every save of the draft takes the next number of its revision, and every write of its files
 * the next version of them, by an insert under a unique key, so of two writes that read the same draft
 * only one lands. The saves themselves are in server/intake/draft.server.ts.
 */

/** What a turn is counted from: the draft's revision and the version of its files. */
type Versions = Pick<StoredSubmission, "revision" | "files_version">;

/** Thrown when another save of the same draft took the revision this one was going to write: read again and decide again. */
export class SaveRaced extends Error {
  constructor() {
    super("Another save of this step landed first");
  }
}

/** A claim whose save never landed (the process stopped between the two) is freed after this long. */
const STUCK_CLAIM_MS = 60_000;

/** Claims one turn of a series (ARCHITECTURE rule 7: an insert under a unique key), freeing one left by a write that never came. */
async function claimTurn(key: string): Promise<boolean> {
  if (await claimOnce(key)) return true;
  const freed = await OnceKey.deleteOne({
    _id: key,
    created_at: mongoose.trusted({ $lt: new Date(Date.now() - STUCK_CLAIM_MS) }),
  });
  return freed.deletedCount > 0 && (await claimOnce(key));
}
/** One delete by _id per key: FerretDB looks up only a lone _id equality by its index (`$in` scans every once-key). */
const release = (keys: string[]) =>
  Promise.all(keys.map((_id) => OnceKey.collection.deleteOne({ _id: _id as never }))).catch(() => undefined);

/**
 * Writes in turn: each key names the next number of a series of the draft's
 * writes (its revision; the version of its files). Two writes that read the
 * same draft cannot both take it, so an older write can never land over a newer
 * one that read the same draft (no read-modify-write race, ARCHITECTURE rule 7):
 * the loser gets SaveRaced and reads again. Each series keeps one claim per
 * order: the one before is dropped once the write is done, and a claim is only
 * good while the draft is still at the version before it (checked after claiming).
 */
export async function writeInTurn<T>(turns: Turn[], write: () => Promise<T>) {
  const keys = turns.map(turnKey);
  const taken: string[] = [];
  for (const key of keys) {
    if (!(await claimTurn(key))) {
      await release(taken);
      throw new SaveRaced();
    }
    taken.push(key);
  }
  try {
    // The turn before is freed once its write is done (below), so a write that read the draft before
    // that could take it again: it goes ahead only if the draft is still where its turn starts.
    if (turns.length) {
      // Only the two counters: FerretDB's CPU for a read grows with what it returns (a whole draft costs half as much again).
      const now = await IntakeSubmission.findById(turns[0].orderId, { revision: 1, files_version: 1 }).lean<Versions>();
      if (turns.some((t) => versionOf(now, t.series) !== t.n - 1)) throw new SaveRaced();
    }
    const result = await write();
    void release(turns.map((t) => turnKey({ ...t, n: t.n - 1 })));
    return result;
  } catch (error) {
    await release(taken);
    throw error;
  }
}
export type Turn = { series: "intake-rev" | "intake-files"; orderId: string; n: number };
export const versionOf = (doc: Versions | null, series: Turn["series"]) =>
  Number((series === "intake-rev" ? doc?.revision : doc?.files_version) ?? 0);
const turnKey = (t: Turn) => `${t.series}:${t.orderId}:${t.n}`;
/**
 * The once-keys of the draft's turns that may still be held: each series keeps its newest, and one either
 * side may be left by a write cut short (data deletion removes them; they name the order).
 */
export function intakeTurnKeys(orderId: string, doc: Versions | null): string[] {
  const newest = { "intake-rev": versionOf(doc, "intake-rev"), "intake-files": versionOf(doc, "intake-files") };
  return Object.entries(newest).flatMap(([series, n]) =>
    [n - 1, n, n + 1].filter((k) => k > 0).map((k) => turnKey({ series: series as Turn["series"], orderId, n: k })),
  );
}
/** The draft's next revision (every step save). */
export const revisionTurn = (orderId: string, before: Versions | null): Turn => ({
  series: "intake-rev",
  orderId,
  n: versionOf(before, "intake-rev") + 1,
});
/** The next version of the draft's files (every write of the logo or the photo list: uploads and step 4's saves). */
export const filesTurn = (orderId: string, before: Versions | null): Turn => ({
  series: "intake-files",
  orderId,
  n: versionOf(before, "intake-files") + 1,
});
