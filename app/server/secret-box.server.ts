import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { getEnv } from "./env.server";

/**
 * Secrets we must read back (the authenticator-app keys of two-factor sign-in)
 * are stored encrypted: AES-256-GCM under a key derived (HKDF-SHA256) from
 * TWO_FACTOR_SECRET. That variable lists secrets newest first, like the other
 * two: a box is sealed under the first and opened under whichever sealed it (its
 * id is named in the box), so the secret rotates without locking anybody out.
 *
 * A sealed box is "v1.<key id>.<iv>.<tag>.<ciphertext>" (base64url). The GCM tag
 * makes a box altered in the database fail to open rather than open to garbage;
 * `purpose` is bound in as associated data, so a box can't be moved to another use.
 */

const keyCache = new Map<string, { id: string; key: Buffer }>();

function keyFor(secret: string) {
  let entry = keyCache.get(secret);
  if (!entry) {
    const key = Buffer.from(hkdfSync("sha256", secret, "rapid-website", "secret-box v1", 32));
    const id = createHash("sha256").update(key).digest("base64url").slice(0, 8);
    entry = { id, key };
    keyCache.set(secret, entry);
  }
  return entry;
}

const keys = () => getEnv().TWO_FACTOR_SECRETS.map(keyFor);

export function seal(plaintext: string, purpose: string): string {
  const { id, key } = keys()[0];
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    "v1",
    id,
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

export class SealedBoxError extends Error {}

/** Opens a box; throws SealedBoxError when its key is no longer listed or the box was altered. */
export function open(box: string, purpose: string): string {
  const [version, id, iv, tag, body] = box.split(".");
  if (version !== "v1" || !id || !iv || !tag || body === undefined) throw new SealedBoxError("Not a sealed box");
  const entry = keys().find((k) => k.id === id);
  if (!entry) throw new SealedBoxError("Sealed under a TWO_FACTOR_SECRET no longer listed");
  try {
    const decipher = createDecipheriv("aes-256-gcm", entry.key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SealedBoxError("The sealed box does not open (altered, or another purpose)");
  }
}

/** Whether a box is sealed under the newest key (else it is re-sealed when next used). */
export const isSealedUnderNewest = (box: string) => box.split(".")[1] === keys()[0].id;
