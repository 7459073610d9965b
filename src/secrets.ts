import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// Secrets the database keeps for us (DKIM private keys) are sealed with
// SECRETS_KEY when it is set, so that a dump of the database alone does not
// hand them out: AES-256-GCM, a fresh nonce each, the tag checked on opening.

/** What a sealed value starts with. */
export const SEALED = "sealed:";

/** The text sealed with the key, or as it is without one. */
export function seal(text: string, key: Buffer | null): string {
  if (key === null) return text;
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return SEALED + Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString("base64");
}

/** The text a sealed value holds (a value kept in the clear as it is); throws without the key it was sealed with. */
export function unseal(value: string, key: Buffer | null): string {
  if (!value.startsWith(SEALED)) return value;
  if (key === null) throw new Error("sealed with SECRETS_KEY, which is not set");
  const bytes = Buffer.from(value.slice(SEALED.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12), { authTagLength: 16 });
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}
