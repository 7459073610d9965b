import type { EventEmitter } from "node:events";
import { ConfigError } from "./config.ts";

// Listening on a configured port, for the HTTP server and the SMTP door: a
// port another program holds is said in one sentence, as a configuration
// error is, rather than as an EADDRINUSE stack.

interface Listening extends EventEmitter {
  listen(port: number, host: string, done: () => void): unknown;
}

/** Listens on the port the variable names; rejects with a ConfigError when another program holds it. */
export function listenOn(server: Listening, port: number, host: string, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE") return reject(error);
      reject(
        new ConfigError(
          `${variable} ${port} is taken: another program listens on ${host}:${port}; stop it, or set ${variable}`,
        ),
      );
    };
    server.once("error", refused);
    server.listen(port, host, () => {
      server.off("error", refused);
      resolve();
    });
  });
}
