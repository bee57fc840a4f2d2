import { describe, expect, it } from "vitest";
import { ADMIN_SESSION_MESSAGES, KEPT_POST_MAX_BYTES, keptFields } from "~/domain/admin/session";
import { FORM_KEY_FIELD } from "~/domain/form-key";

describe("keptFields: what of a refused admin post is kept", () => {
  it("keeps text fields (a coupon's code among them) and the intent, never secrets, files or the form key", () => {
    const file = new File(["x"], "a.png");
    expect(
      keptFields([
        ["intent", "save-data"],
        ["business_name", "Bakery"],
        ["business_name", "second value"],
        ["password", "p"],
        ["newPassword", "p"],
        ["code", "SPRING25"],
        ["totp", "123456"],
        ["twoFactorCode", "123456"],
        ["resetToken", "t"],
        ["client_secret", "s"],
        ["recoveryCodes", "r"],
        [FORM_KEY_FIELD, "k"],
        ["logo", file],
      ]),
    ).toEqual({ intent: "save-data", values: { business_name: "Bakery", code: "SPRING25" } });
  });

  it("keeps nothing when nothing but an intent is left, and refuses past 64 KB of text", () => {
    expect(keptFields([["intent", "delete"]])).toBeNull();
    expect(keptFields([["notes", "é".repeat(KEPT_POST_MAX_BYTES / 2)]])).toBe("too-large");
    expect(keptFields([["notes", "a".repeat(KEPT_POST_MAX_BYTES - 5)]])).toEqual({
      intent: null,
      values: { notes: "a".repeat(KEPT_POST_MAX_BYTES - 5) },
    });
  });

  it("tells the end of the session in Sydney time", () => {
    expect(ADMIN_SESSION_MESSAGES.endsAt(Date.UTC(2026, 10, 27, 4, 5))).toBe(
      "If left idle, your admin session ends at 3:05 pm (Sydney time).",
    );
  });
});
