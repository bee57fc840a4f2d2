import { describe, expect, it } from "vitest";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import { newFormKey, oncePerPost, receiptId } from "~/server/form-keys.server";
import { FormReceipt } from "~/server/models/index.server";
import { useTestDatabase } from "../support/db";

useTestDatabase();

function post(fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

describe("a form key makes a post's effect happen once (ARCHITECTURE.md rule 7)", () => {
  it("runs the effect once for 20 identical posts at once, and answers every one as the first", async () => {
    const form = post({ [FORM_KEY_FIELD]: newFormKey(), message: "hello" });
    let runs = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        oncePerPost("test", form, async () => {
          runs++;
          await new Promise((r) => setTimeout(r, 50));
          return { done: true, answer: { id: "first" } };
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(answers.every((a) => a.id === "first")).toBe(true);
    expect(await FormReceipt.countDocuments()).toBe(1);
  });

  it("lets a refused post be sent again (its claim is released)", async () => {
    const form = post({ [FORM_KEY_FIELD]: newFormKey(), message: "hello" });
    expect(await oncePerPost("test", form, async () => ({ done: false, answer: "refused" }))).toBe("refused");
    expect(await oncePerPost("test", form, async () => ({ done: true, answer: "done" }))).toBe("done");
    expect(await oncePerPost("test", form, async () => ({ done: true, answer: "again" }))).toBe("done");
  });

  it("releases the claim when the effect throws", async () => {
    const form = post({ [FORM_KEY_FIELD]: newFormKey() });
    await expect(oncePerPost("test", form, async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await oncePerPost("test", form, async () => ({ done: true, answer: 2 }))).toBe(2);
  });

  it("names a press by its key alone: a resend carrying more typing is the same press", async () => {
    const key = newFormKey();
    expect(receiptId("s", post({ [FORM_KEY_FIELD]: key, a: "1" }))).toBe(
      receiptId("s", post({ [FORM_KEY_FIELD]: key, a: "1 and more" })),
    );
    expect(receiptId("s", post({ [FORM_KEY_FIELD]: key }))).not.toBe(receiptId("t", post({ [FORM_KEY_FIELD]: key })));
    expect(receiptId("s", post({ [FORM_KEY_FIELD]: "short", a: "1" }))).toBeNull();
    expect(receiptId("s", post({ a: "1" }))).toBeNull();
    let runs = 0;
    const effect = async () => ({ done: true, answer: ++runs });
    expect(await oncePerPost("s", post({ [FORM_KEY_FIELD]: key, a: "1" }), effect)).toBe(1);
    expect(await oncePerPost("s", post({ [FORM_KEY_FIELD]: key, a: "1 and more" }), effect)).toBe(1);
    expect(runs).toBe(1);
  });
});
