import { createHash } from "node:crypto";

/** A PostgreSQL advisory lock key: 64 bits of a name, within the schema the tables live in. */
export function advisoryKey(schema: string, name: string): string {
  return createHash("sha256").update(`${schema}:${name}`).digest().readBigInt64BE(0).toString();
}
