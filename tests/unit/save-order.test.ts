import { describe, expect, it } from "vitest";
import { differences, nextStamp, readSaveStamp, saveOrder } from "~/domain/intake/save-order";

const stamp = (basedOn: number | null, writer: string | null = null, seq: number | null = null) => ({
  basedOn,
  writer,
  seq,
});

describe("the order of a step's saves", () => {
  it("applies a save based on the stored revision, and a first save", () => {
    expect(saveOrder(null, stamp(0, "tab-aaaa", 1))).toBe("apply");
    expect(saveOrder({ revision: 3 }, stamp(3))).toBe("apply");
  });

  it("applies the same page's newer save after its own autosave (Next after an autosave)", () => {
    const stored = { revision: 4, writer: "tab-aaaa", writer_seq: 2 };
    expect(saveOrder(stored, stamp(3, "tab-aaaa", 3))).toBe("apply");
  });

  it("lets no older save of the same page overwrite a newer one (an autosave landing after Next)", () => {
    const stored = { revision: 5, writer: "tab-aaaa", writer_seq: 7 };
    expect(saveOrder(stored, stamp(3, "tab-aaaa", 6))).toBe("stale");
    expect(saveOrder(stored, stamp(3, "tab-aaaa", 7))).toBe("stale");
  });

  it("calls a save based on an older revision written elsewhere a conflict (two tabs)", () => {
    const stored = { revision: 5, writer: "tab-bbbb", writer_seq: 1 };
    expect(saveOrder(stored, stamp(4, "tab-aaaa", 9))).toBe("conflict");
    expect(saveOrder(stored, stamp(4))).toBe("conflict"); // without JavaScript too
  });

  it("reads a malformed stamp as absent, and raises the revision", () => {
    const form = new FormData();
    form.set("basedOn", "-1");
    form.set("writer", "x'; drop");
    form.set("seq", "1e400");
    expect(readSaveStamp(form)).toEqual({ basedOn: null, writer: null, seq: null });
    expect(nextStamp({ revision: 2 }, stamp(2, "tab-aaaa", 4))).toEqual({
      revision: 3,
      writer: "tab-aaaa",
      writer_seq: 4,
    });
  });

  it("lists the fields whose saved value differs from the page's", () => {
    expect(differences({ a: "x", b: ["1", "2"], c: "" }, { a: "y", b: ["1", "2"], c: undefined })).toEqual([
      { field: "a", saved: "x", yours: "y" },
    ]);
  });
});
