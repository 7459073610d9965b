import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ImapFlow } from "imapflow";
import { freePort } from "./process.ts";

// A throwaway Dovecot: its own config, maildirs and port in a temporary
// directory, any password "secret". Tests put mail in with IMAP APPEND, as an
// MTA delivering to the catch-all would.

export const CATCH_ALL = "catchall@mail.example";
const PASSWORD = "secret";

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

function config(dir: string, port: number): string {
  return `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
mail_uid = mail
mail_gid = mail
first_valid_uid = 0
passdb {
  driver = static
  args = password=${PASSWORD}
}
userdb {
  driver = static
  args = uid=mail gid=mail home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
protocol imap {
  mail_max_userip_connections = 50
}
`;
}

export class Dovecot {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async start(): Promise<Dovecot> {
    const dir = mkdtempSync(join(tmpdir(), "pigeonhole-dovecot-"));
    for (const sub of ["run", "state", "mail"]) mkdirSync(join(dir, sub));
    chmodSync(dir, 0o755);
    const mailUser = (flag: string) => Number(execFileSync("id", [flag, "mail"], { encoding: "utf8" }));
    chownSync(join(dir, "mail"), mailUser("-u"), mailUser("-g"));
    const port = await freePort();
    writeFileSync(join(dir, "dovecot.conf"), config(dir, port));
    const dovecot = new Dovecot(dir, port);
    await dovecot.resume();
    return dovecot;
  }

  /** IMAP_URL for a mailbox of the catch-all (or of another login). */
  url(mailbox = "INBOX", user = CATCH_ALL): string {
    return `imap://${encodeURIComponent(user)}:${PASSWORD}@127.0.0.1:${this.port}/${encodeURIComponent(mailbox)}`;
  }

  async resume(): Promise<void> {
    // The daemon would hold on to inherited pipes, and execFileSync would wait for them.
    execFileSync("dovecot", ["-c", join(this.dir, "dovecot.conf")], { stdio: "ignore" });
    for (let i = 0; i < 100 && !(await listening(this.port)); i++) await sleep(50);
  }

  /**
   * Stops the server as a crash or restart would: connected clients lose their
   * connection. `dovecot stop` alone leaves running IMAP sessions alive, so its
   * children go too.
   */
  async halt(): Promise<void> {
    const master = readFileSync(join(this.dir, "run", "master.pid"), "utf8").trim();
    const children = execFileSync("pgrep", ["-P", master], { encoding: "utf8" }).split("\n").filter(Boolean);
    execFileSync("dovecot", ["-c", join(this.dir, "dovecot.conf"), "stop"], { stdio: "ignore" });
    for (const pid of children) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // already gone with its master
      }
    }
    for (let i = 0; i < 100 && (await listening(this.port)); i++) await sleep(50);
    await sleep(200);
  }

  /**
   * While halted: drops a mailbox's UID list and indexes, so it comes back
   * under a new UIDVALIDITY, and removes the messages holding any of `gone`.
   */
  rebuild(mailbox: string, gone: string[]): void {
    const dir = join(this.dir, "mail", CATCH_ALL, `.${mailbox}`);
    for (const file of readdirSync(dir)) {
      if (file.startsWith("dovecot")) rmSync(join(dir, file), { force: true });
    }
    for (const sub of ["cur", "new"]) {
      for (const file of readdirSync(join(dir, sub))) {
        const text = readFileSync(join(dir, sub, file), "utf8");
        if (gone.some((needle) => text.includes(needle))) rmSync(join(dir, sub, file));
      }
    }
  }

  async client(user = CATCH_ALL): Promise<ImapFlow> {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port: this.port,
      secure: false,
      auth: { user, pass: PASSWORD },
      logger: false,
    });
    client.on("error", () => {});
    await client.connect();
    return client;
  }

  /** Delivers raw messages to a mailbox of the catch-all (or of another login). */
  async append(messages: string | Buffer | (string | Buffer)[], mailbox = "INBOX", user = CATCH_ALL): Promise<void> {
    const client = await this.client(user);
    try {
      for (const raw of Array.isArray(messages) ? messages : [messages]) await client.append(mailbox, raw);
    } finally {
      await client.logout();
    }
  }

  async stop(): Promise<void> {
    await this.halt().catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}
