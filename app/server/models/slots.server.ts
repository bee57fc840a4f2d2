import { createHash } from "node:crypto";
import mongoose from "mongoose";
import { isDuplicateKeyError } from "../db.server";

/**
 * The owner of an e-mail address's list (its orders, its accounts): the address's SHA-256, trimmed and in lower
 * case, so a list names no address (a data deletion leaves none behind in an emptied slot).
 */
export const addressOwner = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

/**
 * Lists found by `_id`: FerretDB 1.24 on SQLite pushes down only an `_id` equality
 * (ARCHITECTURE.md rule 7), so a query by any other field scans its whole collection. A list of ids that
 * belongs to an owner (a customer's orders, an order's links) is kept instead as numbered slots,
 * `<owner>:0`, `<owner>:1`, ..., each naming one member, and read by walking them by `_id` until one is not
 * taken: its cost grows with the owner's own members, never with the collection.
 *
 * A slot is taken by an insert (unique `_id`) and a member is in one slot at most (unique `member`), so
 * two adds racing for one owner neither overwrite nor repeat each other, and an add run again adds
 * nothing. A slot is never removed, only emptied (its `member` becomes its own `_id`, unique and no
 * member's), so a walk stops only past the last slot taken. Whoever fills a list adds a member before
 * the record that points to it is written, so a member may name a record that is not (or no longer)
 * the owner's, and the reader checks the record, but none is ever missing.
 */
export function slotList(modelName: string, collection: string) {
  const schema = new mongoose.Schema(
    {
      _id: { type: String, required: true },
      member: { type: String, required: true },
    },
    { collection, versionKey: false, timestamps: { createdAt: "created_at", updatedAt: false } },
  );
  schema.index({ member: 1 }, { unique: true });
  const Slot = mongoose.model(modelName, schema);
  type SlotDoc = { _id: string; member: string };
  const slotId = (owner: string, n: number) => `${owner}:${n}`;

  /** The owner's slots, in the order they were taken, read by `_id` a few at a time (most lists are short). */
  async function slotsOf(owner: string): Promise<SlotDoc[]> {
    const slots: SlotDoc[] = [];
    for (;;) {
      const from = slots.length;
      const batch = await Promise.all(
        Array.from({ length: WALK }, (_, i) => Slot.findById(slotId(owner, from + i)).lean<SlotDoc>()),
      );
      const free = batch.findIndex((slot) => !slot);
      slots.push(...(batch.slice(0, free === -1 ? WALK : free) as SlotDoc[]));
      if (free !== -1) return slots;
    }
  }

  return {
    Slot,

    /** The owner's members, oldest first. */
    async members(owner: string): Promise<string[]> {
      return (await slotsOf(owner)).filter((slot) => slot.member !== slot._id).map((slot) => slot.member);
    },

    /** Puts the member in the owner's list, once however often or concurrently it is called. */
    async add(owner: string, member: string): Promise<void> {
      for (;;) {
        const slots = await slotsOf(owner);
        if (slots.some((slot) => slot.member === member)) return;
        const next = slotId(owner, slots.length);
        try {
          await Slot.create({ _id: next, member });
          return;
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          // The slot was taken meanwhile (walk again), or the member is in a slot already (unique member).
          if (!(await Slot.findById(next, { _id: 1 }).lean())) return;
        }
      }
    },

    /** Empties the owner's slot naming the member, if any. */
    async remove(owner: string, member: string): Promise<void> {
      const slot = (await slotsOf(owner)).find((s) => s.member === member);
      if (slot) await Slot.updateOne({ _id: slot._id }, { $set: { member: slot._id } });
    },
  };
}

/** How many slots a walk reads at once. */
const WALK = 4;
