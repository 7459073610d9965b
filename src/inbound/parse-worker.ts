import { parentPort } from "node:worker_threads";
import { attachmentContents } from "../mailbox/mime.ts";
import { parseMessage, readHead } from "./parse.ts";

// A reader's thread: says "ready" once loaded, then parses raw messages,
// with or without their reading help, or for their attachments' bytes alone
// (a download), or a header section for its head alone, several side by
// side, and answers each with what it found or why it could not.

/**
 * A message to read: as filing reads it (with or without its reading help), for its attachments' bytes, or (a
 * header section) for its head.
 */
export type ReadRequest = { id: number; raw: Uint8Array } & (
  | { derive: boolean }
  | { attachments: true }
  | { head: true }
);

export type ReadAnswer = { id: number } & (
  | { message: Awaited<ReturnType<typeof parseMessage>> }
  | { attachments: Uint8Array[] }
  | { head: Awaited<ReturnType<typeof readHead>> }
  | { error: string }
);

/** What the request asks for, without its id. */
function answerTo(request: ReadRequest, raw: Buffer) {
  if ("attachments" in request) return attachmentContents(raw).then((attachments) => ({ attachments }));
  if ("head" in request) return readHead(raw).then((head) => ({ head }));
  return parseMessage(raw, { derive: request.derive }).then((message) => ({ message }));
}

parentPort?.on("message", async (request: ReadRequest) => {
  const { id, raw } = request;
  const answer: ReadAnswer = await answerTo(request, Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength))
    .then((found) => ({ id, ...found }))
    .catch((error: unknown) => ({ id, error: error instanceof Error ? error.message : String(error) }));
  parentPort?.postMessage(answer);
});
parentPort?.postMessage("ready");
