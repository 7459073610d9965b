import { parentPort } from "node:worker_threads";
import { parseMessage } from "./parse.ts";

// A reader's thread: says "ready" once loaded, then parses raw messages,
// with or without their reading help, several side by side, and answers each
// with what it found or why it could not.

export interface ReadRequest {
  id: number;
  raw: Uint8Array;
  derive: boolean;
}

export type ReadAnswer = { id: number } & ({ message: Awaited<ReturnType<typeof parseMessage>> } | { error: string });

parentPort?.on("message", async ({ id, raw, derive }: ReadRequest) => {
  const answer: ReadAnswer = await parseMessage(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), { derive })
    .then((message) => ({ id, message }))
    .catch((error: unknown) => ({ id, error: error instanceof Error ? error.message : String(error) }));
  parentPort?.postMessage(answer);
});
parentPort?.postMessage("ready");
