import { parentPort } from "node:worker_threads";
import { parseMessage } from "./parse.ts";

// A reader's thread: parses one raw message at a time, with or without its
// reading help, and answers with what it found or why it could not.

export interface ReadRequest {
  raw: Uint8Array;
  derive: boolean;
}

export type ReadAnswer = { message: Awaited<ReturnType<typeof parseMessage>> } | { error: string };

parentPort?.on("message", async ({ raw, derive }: ReadRequest) => {
  const answer: ReadAnswer = await parseMessage(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), { derive })
    .then((message) => ({ message }))
    .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
  parentPort?.postMessage(answer);
});
