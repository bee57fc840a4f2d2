import { describe, expect, it } from "vitest";
import { inTurn, withinBurst } from "~/server/in-turn.server";

/** A piece of work that finishes when the test says so, and says whether it started. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const work = { started: false, open, run: async () => ((work.started = true), await opened, "done") };
  return work;
}

describe("inTurn: requests of one key take turns", () => {
  it("runs `running` at once, lets `waiting` more wait in order, and turns the rest away without running them", async () => {
    const works = Array.from({ length: 6 }, gate);
    const answers = works.map((w) => inTurn("link-a", { running: 2, waiting: 2 }, w.run));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(works.map((w) => w.started)).toEqual([true, true, false, false, false, false]);
    expect(await answers[4]).toBeNull();
    expect(await answers[5]).toBeNull();
    expect(works[4].started || works[5].started).toBe(false);

    works[1].open(); // one finishes: the first in line takes its turn
    expect(await answers[1]).toEqual({ value: "done" });
    expect(works.map((w) => w.started)).toEqual([true, true, true, false, false, false]);
    works[0].open();
    await answers[0];
    expect(works[3].started).toBe(true);
    works[2].open();
    works[3].open();
    expect(await Promise.all(answers.slice(2, 4))).toEqual([{ value: "done" }, { value: "done" }]);
  });

  it("keeps keys apart, frees the turn when the work throws, and forgets a key once its line is empty", async () => {
    const busy = gate();
    const held = inTurn("link-b", { running: 1, waiting: 0 }, busy.run);
    expect(await inTurn("link-b", { running: 1, waiting: 0 }, async () => "x")).toBeNull();
    expect(await inTurn("link-c", { running: 1, waiting: 0 }, async () => "other link")).toEqual({
      value: "other link",
    });
    busy.open();
    await held;
    await expect(
      inTurn("link-b", { running: 1, waiting: 0 }, async () => Promise.reject(new Error("no"))),
    ).rejects.toThrow("no");
    expect(await inTurn("link-b", { running: 1, waiting: 0 }, async () => "free again")).toEqual({
      value: "free again",
    });
  });
});

describe("withinBurst: requests of one key counted in a window", () => {
  it("allows `max` a window, refuses the rest until the window ends, and keeps keys apart", () => {
    const limits = { max: 3, windowMs: 60_000 };
    const t = 1_000_000;
    expect([1, 2, 3, 4].map((i) => withinBurst("burst-a", limits, t + i))).toEqual([true, true, true, false]);
    expect(withinBurst("burst-b", limits, t + 5)).toBe(true);
    expect(withinBurst("burst-a", limits, t + 59_999)).toBe(false);
    expect(withinBurst("burst-a", limits, t + 60_001)).toBe(true); // a new window
  });
});
