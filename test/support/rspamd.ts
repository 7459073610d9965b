import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { emptyZone } from "./dns-server.ts";
import { freePort } from "./process.ts";

// A throwaway Rspamd: Debian's stock rules (/etc/rspamd) with a top-level
// config of its own in a temporary directory (one normal worker on a free
// loopback port, no controller, no proxy), no Redis, and no lookups outward:
// its resolver is the tests' empty zone, and the modules that judge by DNS
// (host names, RBLs, SPF, DMARC, ASN, reputation, the fuzzy servers) are off,
// so an ordinary message scores low. GTUBE is rejected by Rspamd's core.

/** Debian's package makes this user; Rspamd refuses to run its workers as root. */
const USER = "_rspamd";

/**
 * The public suffix list Rspamd compiles for URL detection takes it 15 s or
 * more at each start (its compiled form is cached per database directory); a
 * handful of suffixes does for the tests' mail.
 */
const SUFFIXES = ["com", "net", "org", "example", "test"];

const DNS_MODULES = ["hfilter", "rbl", "spf", "dmarc", "asn", "reputation", "whitelist"];

function config(dir: string, port: number): string {
  return `.include "$CONFDIR/common.conf"
options {
  .include "$CONFDIR/options.inc"
  .include(priority=10) "${dir}/options.inc"
}
logging {
  type = "console";
  level = "error";
}
worker "normal" {
  bind_socket = "127.0.0.1:${port}";
  .include "$CONFDIR/worker-normal.inc"
  count = 1;
}
`;
}

function options(dir: string, nameserver: string): string {
  return `pidfile = "${dir}/rspamd.pid";
# The stock filters without fuzzy_check, whose servers are on the internet.
filters = "chartable,dkim,regexp";
# GTUBE's siblings for the other actions (YJS… add header): off by default, for tests only.
enable_test_patterns = true;
url_tld = "${dir}/suffixes.dat";
dns { nameserver = ["${nameserver}"]; }
`;
}

async function answering(url: string): Promise<boolean> {
  return fetch(`${url}/ping`).then(
    async (reply) => reply.ok && (await reply.text()).trim() === "pong",
    () => false,
  );
}

export class Rspamd {
  private constructor(
    readonly dir: string,
    /** For RSPAMD_URL. */
    readonly url: string,
    private readonly daemon: ChildProcess,
    private readonly exited: Promise<void>,
  ) {}

  static async start(): Promise<Rspamd> {
    const dir = mkdtempSync(join(tmpdir(), "pigeonhole-rspamd-"));
    for (const sub of ["db", "local.d"]) mkdirSync(join(dir, sub));
    chmodSync(dir, 0o755);
    const port = await freePort();
    writeFileSync(join(dir, "rspamd.conf"), config(dir, port));
    writeFileSync(join(dir, "options.inc"), options(dir, await emptyZone()));
    writeFileSync(join(dir, "suffixes.dat"), `${SUFFIXES.join("\n")}\n`);
    for (const module of DNS_MODULES) writeFileSync(join(dir, "local.d", `${module}.conf`), "enabled = false;\n");
    execFileSync("chown", ["-R", `${USER}:${USER}`, dir]);
    const daemon = spawn(
      "rspamd",
      ["-f", "-u", USER, "-g", USER, "-c", join(dir, "rspamd.conf"), "--var", `LOCAL_CONFDIR=${dir}`].concat([
        "--var",
        `DBDIR=${join(dir, "db")}`,
        "--var",
        `RUNDIR=${dir}`,
      ]),
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    daemon.stdout?.on("data", (chunk) => (output += chunk));
    daemon.stderr?.on("data", (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => daemon.once("exit", () => resolve()));
    let gone = false;
    void exited.then(() => (gone = true));
    const rspamd = new Rspamd(dir, `http://127.0.0.1:${port}`, daemon, exited);
    // Loading Debian's rules takes a few seconds, more on a busy machine.
    while (!(await answering(rspamd.url))) {
      if (gone) {
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`rspamd exited before answering: ${output.slice(-2000)}`);
      }
      await sleep(100);
    }
    return rspamd;
  }

  async stop(): Promise<void> {
    if (this.daemon.exitCode === null && this.daemon.signalCode === null) this.daemon.kill("SIGTERM");
    await this.exited;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
