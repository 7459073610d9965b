import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Daemon, freePort, startDaemon } from "./process.ts";

// A throwaway clamd: its own config, socket and signature database in a
// temporary directory, listening on a free loopback port and on a Unix socket.
// There are no downloads here, so the database is one body signature the test
// writes (an .ndb line: the EICAR test file's bytes at any offset), which
// clamd's mail scanner finds in a plain body and in a decoded attachment
// alike. With one signature clamd starts in well under a second, so a test
// can stop it for a while and have it back on the same port.

/** The EICAR anti-virus test file (eicar.org): 68 harmless bytes every scanner is meant to flag. */
export const EICAR = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";

/** The name clamd reports; it adds ".UNOFFICIAL" to a signature of a database not its own. */
export const EICAR_SIGNATURE = "Pigeonhole.Test.EICAR.UNOFFICIAL";

/** clamd's StreamMaxLength here: small, so a test can go past it cheaply. */
export const STREAM_MAX_BYTES = 1024 * 1024;

function config(dir: string, port: number): string {
  return `DatabaseDirectory ${dir}/db
TCPSocket ${port}
TCPAddr 127.0.0.1
LocalSocket ${dir}/clamd.sock
Foreground yes
LogFile ${dir}/clamd.log
TemporaryDirectory ${dir}
StreamMaxLength ${STREAM_MAX_BYTES}
SelfCheck 0
Bytecode no
`;
}

/** clamd on its directory's config; as root without a User line, it stays root and reads its root-owned directory. */
function launch(dir: string, port: number): Promise<Daemon> {
  return startDaemon("clamd", ["-c", join(dir, "clamd.conf")], dir, () => answering(port), 50);
}

async function answering(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer.startsWith("PONG")));
    socket.on("error", () => resolve(false));
    socket.end("zPING\0");
  });
}

export class Clamd {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private daemon: Daemon,
  ) {}

  /** For CLAMAV_URL, over TCP. */
  get url(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  /** For CLAMAV_URL, over the Unix socket. */
  get socketUrl(): string {
    return `unix://${join(this.dir, "clamd.sock")}`;
  }

  static async start(): Promise<Clamd> {
    const dir = mkdtempSync(join(tmpdir(), "pigeonhole-clamd-"));
    mkdirSync(join(dir, "db"));
    writeFileSync(
      join(dir, "db", "pigeonhole.ndb"),
      `${EICAR_SIGNATURE.replace(/\.UNOFFICIAL$/, "")}:0:*:${Buffer.from(EICAR).toString("hex")}\n`,
    );
    const port = await freePort();
    writeFileSync(join(dir, "clamd.conf"), config(dir, port));
    return new Clamd(dir, port, await launch(dir, port));
  }

  /** Runs `run` while clamd is stopped (its port refuses connections), then starts it again on the same port. */
  async whileStopped<T>(run: () => Promise<T>): Promise<T> {
    const { child, exited } = this.daemon;
    child.kill("SIGTERM");
    await exited;
    try {
      return await run();
    } finally {
      this.daemon = await launch(this.dir, this.port);
    }
  }

  stop(): Promise<void> {
    return this.daemon.stop();
  }
}
