import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import { startReaders, Unreadable } from "./readers.ts";

// The readers' timeouts and re-reads, with threads that behave on cue: one
// that never answers a message holding "hang" with its reading help (or,
// for "stuck", at all), and one that fails before it is ready; and a
// download's attachments read on the real thread.

const CUED = `
const { parentPort } = require("node:worker_threads");
parentPort.postMessage("ready");
parentPort.on("message", ({ id, raw, derive }) => {
  const text = Buffer.from(raw).toString();
  if (text.includes("stuck") || (text.includes("hang") && derive)) return;
  parentPort.postMessage({ id, message: { subject: text, derived: derive } });
});`;

const cued = () => new Worker(CUED, { eval: true });
const read = (readers: ReturnType<typeof startReaders>, text: string) =>
  readers.read(Buffer.from(text)) as unknown as Promise<{ subject: string; derived: boolean }>;

describe("readers", () => {
  test("a message whose reading hangs is read again without its help; the others it was read beside keep theirs", async () => {
    const readers = startReaders({ timeoutMs: 1_000, startWorker: cued });
    try {
      const texts = ["one", "hang", "two", "three"];
      const answers = await Promise.all(texts.map((text) => read(readers, text)));
      expect(answers).toEqual([
        { subject: "one", derived: true },
        { subject: "hang", derived: false },
        { subject: "two", derived: true },
        { subject: "three", derived: true },
      ]);
    } finally {
      await readers.close();
    }
  });

  test("a message that cannot be read even without its help is unreadable; the readers go on", async () => {
    const readers = startReaders({ timeoutMs: 500, startWorker: cued });
    try {
      await expect(read(readers, "stuck")).rejects.toBeInstanceOf(Unreadable);
      expect(await read(readers, "after")).toEqual({ subject: "after", derived: true });
    } finally {
      await readers.close();
    }
  });

  test("a thread slow to start cuts no message short: the reading time runs from when it is ready", async () => {
    const slow = () =>
      new Worker(`const until = Date.now() + 800; while (Date.now() < until);\n${CUED}`, { eval: true });
    const readers = startReaders({ timeoutMs: 300, startWorker: slow });
    try {
      expect(await read(readers, "patient")).toEqual({ subject: "patient", derived: true });
    } finally {
      await readers.close();
    }
  });

  test("a thread that fails before it is ready is the service's fault, not the message's", async () => {
    const broken = () => new Worker("throw new Error('no parser here')", { eval: true });
    const readers = startReaders({ timeoutMs: 1_000, startWorker: broken });
    try {
      const failure = await read(readers, "fine").catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(Unreadable);
    } finally {
      await readers.close();
    }
  });

  test("a download's attachments: each one's bytes, in the order filing records them, read on a thread", async () => {
    const readers = startReaders();
    try {
      const raw = [
        "From: a@sender.example",
        "To: b@agents.example",
        "Subject: Two files",
        'Content-Type: multipart/mixed; boundary="M"',
        "",
        "--M",
        "Content-Type: text/plain",
        "",
        "Attached.",
        "--M",
        'Content-Type: application/octet-stream; name="one.bin"',
        "Content-Transfer-Encoding: base64",
        "",
        Buffer.from([0, 1, 2, 255]).toString("base64"),
        "--M",
        'Content-Type: text/plain; name="two.txt"',
        'Content-Disposition: attachment; filename="two.txt"',
        "",
        "second",
        "--M--",
        "",
      ].join("\r\n");
      const contents = await readers.attachments(Buffer.from(raw));
      expect(contents.map((bytes) => [...bytes])).toEqual([[0, 1, 2, 255], [...Buffer.from("second")]]);
      expect(contents[0]).toBeInstanceOf(Buffer);
    } finally {
      await readers.close();
    }
  });

  test("a head: what the header section alone says, read on a thread; none for a section too long to read alone", async () => {
    const readers = startReaders();
    try {
      const raw =
        "From: Pat <Pat@Sender.example>\r\nTo: scout@agents.example\r\nCc: b@agents.example\r\n\r\nHello.\r\n";
      expect(await readers.head(Buffer.from(raw))).toEqual({
        from: { address: "Pat@Sender.example", name: "Pat" },
        envelopeTo: [],
        headerTo: ["scout@agents.example", "b@agents.example"],
      });
      const endless = `From: a@sender.example\r\nX-Padding: ${"x".repeat(70_000)}\r\n\r\nHello.\r\n`;
      expect(await readers.head(Buffer.from(endless))).toBeNull();
    } finally {
      await readers.close();
    }
  });

  test("a head cut short with its thread is none: the whole message, read then, says what it is", async () => {
    const readers = startReaders({ timeoutMs: 500, startWorker: cued });
    try {
      expect(await readers.head(Buffer.from("Subject: stuck\r\n\r\nHello.\r\n"))).toBeNull();
    } finally {
      await readers.close();
    }
  });

  test("closed, they read nothing more", async () => {
    const readers = startReaders({ startWorker: cued });
    await readers.close();
    await expect(read(readers, "late")).rejects.toThrow(/closed/);
  });
});
