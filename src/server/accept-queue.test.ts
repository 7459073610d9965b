import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { expect, test } from "vitest";
import { acceptQueue } from "./accept-queue.ts";

test("counts the connections the kernel holds for a listener that has not taken them", async () => {
  // A listener whose event loop never runs again after it listens: it takes no connection.
  const listener = spawn(process.execPath, [
    "-e",
    `const server = require("node:net").createServer().listen(0, "127.0.0.1", () => {
      process.stdout.write(server.address().port + "\\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    });`,
  ]);
  try {
    const port = Number(
      await new Promise<string>((told) => listener.stdout.once("data", (line) => told(String(line)))),
    );
    expect(await acceptQueue(port)).toBe(0);
    const sockets = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<Socket>((connected) =>
            connect(port, "127.0.0.1").once("connect", function (this: Socket) {
              connected(this);
            }),
          ),
      ),
    );
    expect(await acceptQueue(port)).toBe(3);
    for (const socket of sockets) socket.destroy();
  } finally {
    listener.kill();
  }
});
