import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyZone } from "./dns-server.ts";
import { type Daemon, freePort, startDaemon } from "./process.ts";

// A throwaway Rspamd: Debian's stock rules (/etc/rspamd) with a top-level
// config of its own in a temporary directory (one normal worker on a free
// loopback port, no controller, no proxy), no Redis, and no lookups outward:
// its resolver is the tests' empty zone, and the modules that judge by DNS
// (host names, RBLs, SPF, DMARC, ASN, reputation, the fuzzy servers) are off,
// so an ordinary message scores low. GTUBE is rejected by Rspamd's core, its
// siblings (test patterns) add a header or rewrite the subject; a token in the
// Subject forces the actions no pattern gives (a multimap rule's action), and
// mail from one listed client address is spam (as an RBL would have it).

/** Debian's package makes this user; Rspamd refuses to run its workers as root. */
const USER = "_rspamd";

/**
 * The public suffix list Rspamd compiles for URL detection takes it 15 s or
 * more at each start (its compiled form is cached per database directory); a
 * handful of suffixes does for the tests' mail.
 */
const SUFFIXES = ["com", "net", "org", "example", "test"];

/** A Subject holding one of these gets that action from Rspamd, whatever the message's score. */
export const FORCED_ACTIONS = {
  "soft reject": "PIGEONHOLE-TEST-SOFT-REJECT",
  greylist: "PIGEONHOLE-TEST-GREYLIST",
} as const;

/** A client address Rspamd's multimap lists: mail it is told came from there scores as spam (add header). */
export const LISTED_IP = "198.51.100.66";

/** One multimap rule a forced action: its symbol when the Subject holds the token, and the action as a pre-result. */
function forcedAction(dir: string, action: string, token: string): string {
  writeFileSync(join(dir, `${token}.map`), `/${token}/\n`);
  return `${token.replaceAll("-", "_")} {
  type = "header";
  header = "Subject";
  regexp = true;
  map = "${dir}/${token}.map";
  symbol = "${token.replaceAll("-", "_")}";
  action = "${action}";
}
`;
}

/** The multimap rule that makes mail from LISTED_IP spam. */
function listedIp(dir: string): string {
  writeFileSync(join(dir, "listed-ip.map"), `${LISTED_IP}\n`);
  return `PIGEONHOLE_TEST_LISTED_IP {
  type = "ip";
  map = "${dir}/listed-ip.map";
  symbol = "PIGEONHOLE_TEST_LISTED_IP";
  action = "add header";
}
`;
}

/** The test's multimap rules: the forced actions and the listed address. */
function multimap(dir: string): string {
  const forced = Object.entries(FORCED_ACTIONS).map(([action, token]) => forcedAction(dir, action, token));
  return [...forced, listedIp(dir)].join("");
}

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
    private readonly daemon: Daemon,
  ) {}

  static async start(): Promise<Rspamd> {
    const dir = mkdtempSync(join(tmpdir(), "pigeonhole-rspamd-"));
    for (const sub of ["db", "local.d"]) mkdirSync(join(dir, sub));
    chmodSync(dir, 0o755);
    const port = await freePort();
    writeFileSync(join(dir, "rspamd.conf"), config(dir, port));
    writeFileSync(join(dir, "options.inc"), options(dir, await emptyZone()));
    writeFileSync(join(dir, "suffixes.dat"), `${SUFFIXES.join("\n")}\n`);
    writeFileSync(join(dir, "local.d", "multimap.conf"), multimap(dir));
    for (const module of DNS_MODULES) writeFileSync(join(dir, "local.d", `${module}.conf`), "enabled = false;\n");
    execFileSync("chown", ["-R", `${USER}:${USER}`, dir]);
    const url = `http://127.0.0.1:${port}`;
    const args = ["-f", "-u", USER, "-g", USER, "-c", join(dir, "rspamd.conf"), "--var", `LOCAL_CONFDIR=${dir}`];
    args.push("--var", `DBDIR=${join(dir, "db")}`, "--var", `RUNDIR=${dir}`);
    // Loading Debian's rules takes a few seconds, more on a busy machine.
    const daemon = await startDaemon("rspamd", args, dir, () => answering(url), 100);
    return new Rspamd(dir, url, daemon);
  }

  stop(): Promise<void> {
    return this.daemon.stop();
  }
}
