import { Secret, TOTP } from "otpauth";

/**
 * Time-based one-time passwords (RFC 6238) for two-factor sign-in, through
 * otpauth. The settings are the ones every common authenticator app expects
 * (Google Authenticator, 1Password, Authy...): SHA-1, 6 digits, 30-second steps.
 * A code is accepted one step either side of now (clocks drift, people type
 * slowly); which step matched is returned so the caller can refuse it twice.
 * Pure: the clock is a parameter, so tests pin it.
 */
export const TOTP_SETTINGS = { algorithm: "SHA1", digits: 6, period: 30, window: 1 } as const;
export const TOTP_ISSUER = "24-Hour Website";

type Options = { algorithm?: "SHA1" | "SHA256" | "SHA512"; digits?: number; period?: number };

function totp(secretBase32: string, options: Options = {}, label = "") {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: options.algorithm ?? TOTP_SETTINGS.algorithm,
    digits: options.digits ?? TOTP_SETTINGS.digits,
    period: options.period ?? TOTP_SETTINGS.period,
  });
}

/** A new random key: 160 bits (RFC 4226's recommended length), in base32 as the apps take it. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The base32 form of a raw key (RFC 6238's test keys are ASCII strings). */
export const base32OfText = (text: string) => Secret.fromUTF8(text).base32;

/** The code for the step holding `now` (ms). */
export const totpCode = (secretBase32: string, now: number, options?: Options) =>
  totp(secretBase32, options).generate({ timestamp: now });

/** The time step (counter) holding `now`. */
export const totpStep = (now: number, period: number = TOTP_SETTINGS.period) => Math.floor(now / 1000 / period);

/**
 * The step a code belongs to, when it is right for now or one step either side;
 * null otherwise. Anything that is not exactly the right number of digits is null.
 */
export function matchTotp(secretBase32: string, code: string, now: number, options?: Options): number | null {
  const digits = options?.digits ?? TOTP_SETTINGS.digits;
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return null;
  const delta = totp(secretBase32, options).validate({ token: code, timestamp: now, window: TOTP_SETTINGS.window });
  return delta === null ? null : totpStep(now, options?.period) + delta;
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export const totpUri = (secretBase32: string, accountName: string) => totp(secretBase32, {}, accountName).toString();
