import { describe, expect, it } from "vitest";
import { said, type Upload } from "~/components/intake/upload-sender";

/** The line beside a step-4 file on its way (the time left, at the speed measured on this try). */
describe("an upload's line", () => {
  const upload = (patch: Partial<Upload>): Upload => ({
    id: 1,
    key: "k",
    field: "photos",
    file: new File(["x"], "shop.jpg"),
    state: "sending",
    percent: 40,
    secondsLeft: null,
    message: null,
    xhr: null,
    attempts: 0,
    ...patch,
  });

  it("says the time left once the speed is measured, in seconds or minutes", () => {
    expect(said(upload({}))).toBe("Uploading shop.jpg: 40%");
    expect(said(upload({ secondsLeft: 0 }))).toBe("Uploading shop.jpg: 40%, about 1 s left");
    expect(said(upload({ secondsLeft: 42 }))).toBe("Uploading shop.jpg: 40%, about 42 s left");
    expect(said(upload({ secondsLeft: 61 }))).toBe("Uploading shop.jpg: 40%, about 2 min left");
  });

  it("announces each quarter only, without the time left (the live region)", () => {
    expect(said(upload({ percent: 57, secondsLeft: 42 }), true)).toBe("Uploading shop.jpg: 50%");
    expect(said(upload({ percent: 100 }))).toBe("shop.jpg: sent, being checked");
  });
});
