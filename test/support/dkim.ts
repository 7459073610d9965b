import { generateKeyPairSync } from "node:crypto";
import { type DKIMSignOptions, dkimSign } from "mailauth";

// DKIM for tests: a key and the TXT record that publishes it (at
// sel._domainkey.<domain>), and mail signed with it by mailauth's own signer.

export interface DkimKey {
  privateKey: string;
  record: string;
}

export function dkimKey(): DkimKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const p = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    record: `v=DKIM1; k=rsa; p=${p}`,
  };
}

/** The message with a DKIM-Signature of the domain on top (selector sel, relaxed/relaxed). */
export async function dkimSigned(raw: string, signingDomain: string, key: DkimKey): Promise<string> {
  // mailauth signs what signatureData lists; its type declarations want the fields at the top instead. Without a
  // signTime it reads the clock twice, for the t= it signs and for the t= it writes, and the two differ when a
  // half second passes between them: about one signature in a thousand would never verify.
  const options = {
    canonicalization: "relaxed/relaxed",
    signTime: new Date(),
    signatureData: [{ signingDomain, selector: "sel", privateKey: key.privateKey }],
  } as unknown as DKIMSignOptions;
  const { signatures, errors } = await dkimSign(raw, options);
  if (errors.length > 0) throw new Error(`DKIM signing failed: ${JSON.stringify(errors)}`);
  return signatures + raw;
}
