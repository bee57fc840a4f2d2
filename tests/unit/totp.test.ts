import { describe, expect, it } from "vitest";
import { base32OfText, matchTotp, totpCode, totpStep, totpUri, TOTP_SETTINGS } from "~/domain/totp";
import {
  CODE_FAILURE_LIMIT,
  codeDelayMs,
  codesAllowedWithin,
  formatRecoveryCode,
  formatWait,
  FREE_CODE_FAILURES,
  FRESH_PROOF_MS,
  isAppCode,
  isFresh,
  isRecoveryCode,
  MAX_CODE_DELAY_MS,
  nextCodeAllowedAt,
  TWO_FACTOR_MESSAGES,
  WARN_OWNER_AFTER_FAILURES,
} from "~/domain/two-factor";

/**
 * RFC 6238 Appendix B: the published test vectors (8 digits; the SHA-1, SHA-256
 * and SHA-512 keys are the ASCII strings "1234567890" repeated to 20, 32 and 64 bytes).
 */
const KEYS = {
  SHA1: base32OfText("12345678901234567890"),
  SHA256: base32OfText("12345678901234567890123456789012"),
  SHA512: base32OfText("1234567890123456789012345678901234567890123456789012345678901234"),
} as const;
const VECTORS: [number, string, keyof typeof KEYS][] = [
  [59, "94287082", "SHA1"],
  [59, "46119246", "SHA256"],
  [59, "90693936", "SHA512"],
  [1111111109, "07081804", "SHA1"],
  [1111111109, "68084774", "SHA256"],
  [1111111109, "25091201", "SHA512"],
  [1111111111, "14050471", "SHA1"],
  [1111111111, "67062674", "SHA256"],
  [1111111111, "99943326", "SHA512"],
  [1234567890, "89005924", "SHA1"],
  [1234567890, "91819424", "SHA256"],
  [1234567890, "93441116", "SHA512"],
  [2000000000, "69279037", "SHA1"],
  [2000000000, "90698825", "SHA256"],
  [2000000000, "38618901", "SHA512"],
  [20000000000, "65353130", "SHA1"],
  [20000000000, "77737706", "SHA256"],
  [20000000000, "47863826", "SHA512"],
];

describe("TOTP (RFC 6238)", () => {
  it.each(VECTORS)("at T=%i s the code is %s (%s)", (seconds, expected, algorithm) => {
    const options = { algorithm, digits: 8 } as const;
    expect(totpCode(KEYS[algorithm], seconds * 1000, options)).toBe(expected);
    expect(matchTotp(KEYS[algorithm], expected, seconds * 1000, options)).toBe(totpStep(seconds * 1000));
  });

  it("uses what authenticator apps expect: SHA-1, 6 digits, 30 s", () => {
    expect(TOTP_SETTINGS).toMatchObject({ algorithm: "SHA1", digits: 6, period: 30 });
    // The 6-digit code is the 8-digit vector's last six digits (RFC 4226 truncation).
    expect(totpCode(KEYS.SHA1, 59_000)).toBe("287082");
    const uri = totpUri(KEYS.SHA1, "admin@example.test");
    expect(uri).toMatch(/^otpauth:\/\/totp\/24-Hour%20Website:admin%40example\.test\?/);
    expect(uri).toContain("algorithm=SHA1");
    expect(uri).toContain("digits=6");
    expect(uri).toContain("period=30");
  });

  it("accepts a code one step either side of now, never two", () => {
    const now = 1_700_000_000_000; // a fixed clock
    const step = totpStep(now);
    const at = (s: number) => totpCode(KEYS.SHA1, s * 30_000);
    expect(matchTotp(KEYS.SHA1, at(step), now)).toBe(step);
    expect(matchTotp(KEYS.SHA1, at(step - 1), now)).toBe(step - 1);
    expect(matchTotp(KEYS.SHA1, at(step + 1), now)).toBe(step + 1);
    expect(matchTotp(KEYS.SHA1, at(step - 2), now)).toBeNull();
    expect(matchTotp(KEYS.SHA1, at(step + 2), now)).toBeNull();
  });

  it("refuses anything that is not six digits", () => {
    const now = 1_700_000_000_000;
    const code = totpCode(KEYS.SHA1, now);
    for (const bad of ["", "12345", "1234567", `${code} `, "abcdef", `0x${code}`]) {
      expect(matchTotp(KEYS.SHA1, bad, now), bad).toBeNull();
    }
  });
});

describe("two-factor rules", () => {
  it("tells app codes from recovery codes and formats recovery codes", () => {
    expect(isAppCode("123456")).toBe(true);
    expect(isAppCode("12345")).toBe(false);
    expect(isRecoveryCode("abcde234fg")).toBe(true);
    expect(isRecoveryCode("abcde1")).toBe(false);
    expect(formatRecoveryCode("abcdefghij")).toBe("abcde-fghij");
  });

  it("counts proof as fresh for 10 minutes", () => {
    const now = 1_700_000_000_000;
    expect(FRESH_PROOF_MS).toBe(600_000);
    expect(isFresh(now - 600_000, now)).toBe(true);
    expect(isFresh(now - 600_001, now)).toBe(false);
    expect(isFresh(null, now)).toBe(false);
    expect(isFresh(now + 5_000, now)).toBe(false); // from the future: not trusted
  });
});

describe("the second factor's guessing budget, on a fixed clock", () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  it("lets the first wrong codes through at once, then doubles the wait up to its cap", () => {
    expect([0, 1, 4].map(codeDelayMs)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10].map(codeDelayMs)).toEqual([15_000, 30_000, 60_000, 120_000, 240_000, 480_000]);
    expect([11, 50, 99].map(codeDelayMs)).toEqual([MAX_CODE_DELAY_MS, MAX_CODE_DELAY_MS, MAX_CODE_DELAY_MS]);
    const t = Date.UTC(2026, 10, 27, 3, 59, 0);
    expect(nextCodeAllowedAt(4, t)).toBe(t);
    expect(nextCodeAllowedAt(7, t)).toBe(t + 60_000);
    expect(nextCodeAllowedAt(CODE_FAILURE_LIMIT - 1, t)).toBe(t + MAX_CODE_DELAY_MS);
  });

  it("never renews with the clock: 100 wrong codes in a row and then none, however long the guesser waits", () => {
    expect(nextCodeAllowedAt(CODE_FAILURE_LIMIT, 0)).toBeNull();
    // Across an hour's boundary the old fixed window gave a fresh 100: now 2 minutes give 8.
    expect(codesAllowedWithin(2 * 60_000)).toBe(8);
    expect(codesAllowedWithin(HOUR)).toBe(15);
    // A whole day: the 100 the account ever takes in a row (before: 100 an hour, 2,400 a day).
    expect(codesAllowedWithin(DAY)).toBe(CODE_FAILURE_LIMIT);
    expect(codesAllowedWithin(30 * DAY)).toBe(CODE_FAILURE_LIMIT);
    // How long the guesser needs for them: 15.1 hours.
    const hoursFor100 = (945 + 89 * 600) / 3600;
    expect(codesAllowedWithin(hoursFor100 * HOUR)).toBe(CODE_FAILURE_LIMIT);
    expect(codesAllowedWithin(hoursFor100 * HOUR - 1)).toBe(CODE_FAILURE_LIMIT - 1);
    expect(FREE_CODE_FAILURES).toBeLessThan(WARN_OWNER_AFTER_FAILURES);
  });

  it("says a wait in whole seconds or minutes", () => {
    expect(formatWait(1)).toBe("1 second");
    expect(formatWait(15_000)).toBe("15 seconds");
    expect(formatWait(480_000)).toBe("8 minutes");
    expect(TWO_FACTOR_MESSAGES.codeWait(60_000)).toContain("wait 60 seconds");
  });
});
