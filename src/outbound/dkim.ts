import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import DKIM from "nodemailer/lib/dkim";

// DKIM: keys made here, and the message signed by nodemailer's DKIM signer
// (relaxed/relaxed, rsa-sha256) over the headers a receiver should trust.

/** Signed whatever else a header may say: what a reader sees and what threads the message. */
const SIGNED_HEADERS = [
  "from",
  "sender",
  "reply-to",
  "to",
  "cc",
  "subject",
  "date",
  "message-id",
  "in-reply-to",
  "references",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "auto-submitted",
].join(":");

export interface SigningKey {
  domainName: string;
  keySelector: string;
  /** PEM. */
  privateKey: string;
}

/** The message with a DKIM-Signature header of the key's. */
export async function signMessage(raw: Buffer, key: SigningKey): Promise<Buffer> {
  const signer = new DKIM({ ...key, headerFieldNames: SIGNED_HEADERS });
  const chunks: Buffer[] = [];
  for await (const chunk of signer.sign(raw)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A fresh 2048-bit RSA key: the private key in PEM, the public key as a DKIM record's p= carries it. */
export async function newDkimKey(): Promise<{ privateKey: string; publicKey: string }> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { privateKey, publicKey: publicKey.toString("base64") };
}
