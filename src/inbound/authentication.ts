import ipaddr from "ipaddr.js";
import type { DKIMResult } from "mailauth";
import type { Config } from "../config.ts";
import { describeFault, type Logger } from "../log.ts";
import {
  aligned,
  NOT_EVALUATED,
  type ResultWord,
  resultWord,
  type SenderChecks,
  verdictOf,
} from "../mailbox/authentication.ts";
import { parseAuthenticationResults } from "./authentication-results.ts";
import { dnsLookup, type Lookup } from "./dns.ts";
import { headerEnd } from "./parse.ts";

// Sender authentication at filing. Either the service checks the message
// itself with mailauth (SPF for the client that handed it over, DKIM, ARC,
// DMARC), or, with TRUSTED_AUTHSERV_ID, it reads the verdicts that server
// wrote; anybody can write an Authentication-Results header, so every other
// server's is ignored, and so is every one in mail the SMTP door took from
// the sender's own server (it is the MX, and checks that mail itself).
// SPF's client is never taken from a Received line the sender could have
// written: the doors name it (the SMTP door's peer or the client its trusted
// proxy names, /inbound/raw's X-Client-Ip), and the catch-all reads only the
// lines its own hosts wrote (tracedClient).

/** Who handed the message to the receiving side, as SPF checks it. */
export interface SpfClient {
  ip: string;
  helo: string;
  /** MAIL FROM; empty for a bounce (SPF then checks the HELO's domain). */
  sender: string;
}

/**
 * `direct`: the message came straight from the sender's server, the SMTP door being the MX, so no server of the
 * operator's wrote an Authentication-Results above it: one naming TRUSTED_AUTHSERV_ID is the sender's own, and the
 * message is checked here.
 */
export type Authenticator = (
  raw: Buffer,
  fromAddress: string,
  client: SpfClient | null,
  direct: boolean,
) => Promise<SenderChecks>;

/** Never throws: mail whose checks break is filed all the same, as not evaluated. */
export function authenticator(config: Config, log: Logger): Authenticator {
  const lookup = dnsLookup(config.dnsServers);
  const check = (raw: Buffer, fromAddress: string, client: SpfClient | null) =>
    checked(raw, fromAddress, client, lookup, config.mailDomain).catch((error) => {
      log("warn", "authentication_failed", { error: describeFault(error) });
      return NOT_EVALUATED;
    });
  const trusted = config.trustedAuthservId;
  if (trusted === null) return check;
  return async (raw, fromAddress, client, direct) =>
    direct ? check(raw, fromAddress, client) : fromTrustedHeaders(raw, fromAddress, trusted);
}

/**
 * The header section's fields in order (the newest first): each name in lower case, each value unfolded. The
 * section ends at its first empty line, CRLF or bare LF, as the parser reads it: a body line is never read as a
 * header (a sender's Authentication-Results or Received below an empty line of bare LFs).
 */
function headerFields(raw: Buffer): { name: string; value: string }[] {
  const head = raw.subarray(0, headerEnd(raw, raw.length) ?? raw.length).toString("latin1");
  return head.split(/\r?\n(?![ \t])/).flatMap((line) => {
    const colon = line.indexOf(":");
    if (colon < 1) return [];
    const value = line
      .slice(colon + 1)
      .replace(/\r?\n[ \t]+/g, " ")
      .trim();
    return [{ name: line.slice(0, colon).trim().toLowerCase(), value }];
  });
}

/** Where a server's hops between its own hosts come from: the machine itself and private networks. */
const INTERNAL_RANGES = ["loopback", "private", "linkLocal", "uniqueLocal", "unspecified"];

const ADDRESS_LITERAL = /\[(?:IPv6:)?([0-9a-f:.]+)\]/gi;

/**
 * A Received line's hop: who handed the message over (its HELO and address, when named) and who took it. The
 * address is the one the receiving server wrote of its peer: the last literal of the comment after the HELO
 * (Postfix, Sendmail and Gmail write `from HELO (name [address])`, Exim `from name ([address] helo=HELO)`), or
 * the first word when the comment names none (Exim's `from [address] (helo=HELO)`). Never a literal the client
 * gave as its HELO: `HELO [192.0.2.1]` names an address of the client's choosing. A line with a second `by` is
 * none: Postfix joins a HELO of several words with spaces, so `HELO x by mx.example.org` would pass for the
 * server's own clause, naming no peer, and the line would be read as a hop between the operator's hosts.
 */
function hopOf(received: string): { helo: string; ip: string | null; by: string } | null {
  if (received.match(/(?:^|\s)by\s/gi)?.length !== 1) return null;
  const hop = /^(?:from\s+(\S+)([\s\S]*?)\s+)?by\s+([^\s;]+)/i.exec(received);
  if (!hop?.[3]) return null;
  const first = hop[1] ?? "";
  const comment = (hop[2] ?? "").replace(/\bhelo=[^\s)]*/gi, "");
  const literals = [...comment.matchAll(ADDRESS_LITERAL)].map((match) => match[1]);
  const ip = literals.at(-1) ?? /^\[(?:IPv6:)?([0-9a-f:.]+)\]$/i.exec(first)?.[1];
  return {
    // Exim writes `(helo=name)` when the client's name is not the one it gave.
    helo: /\bhelo=([^\s)]+)/i.exec(hop[2] ?? "")?.[1] ?? first,
    ip: ip && ipaddr.isValid(ip) ? ipaddr.process(ip).toString() : null,
    by: hop[3].toLowerCase().replace(/\.$/, ""),
  };
}

/**
 * SPF's client for mail read from the catch-all: the first hop from outside, as the receiving side recorded it.
 * Received lines are read from the top while each was written `by` one of `ownHosts` (TRUSTED_MX_HOSTS); a hop
 * from an internal address, or naming none, is one between its own hosts and leads on to the next line. The
 * first from a public address is the client, with the envelope sender of the Return-Path written above it. What
 * lies below is the sender's to write and is never read; with no such hop SPF is not checked (null).
 */
export function tracedClient(raw: Buffer, ownHosts: readonly string[]): SpfClient | null {
  let returnPath: string | null = null;
  for (const { name, value } of headerFields(raw)) {
    if (name === "return-path") returnPath ??= value.replace(/^<|>$/g, "").trim();
    if (name !== "received") continue;
    const hop = hopOf(value);
    if (!hop || !ownHosts.includes(hop.by)) return null;
    if (hop.ip && !INTERNAL_RANGES.includes(ipaddr.parse(hop.ip).range())) {
      return { ip: hop.ip, helo: hop.helo, sender: returnPath ?? "" };
    }
  }
  return null;
}

/**
 * The word for a DKIM signature. mailauth writes `neutral` for a body whose
 * hash does not match, as Gmail does; RFC 6376 calls it a failed verification.
 */
function dkimWord(result: DKIMResult): ResultWord | null {
  if (result.status.result === "neutral" && result.status.comment === "body hash did not verify") return "fail";
  return resultWord(result.status.result);
}

/** The message's DKIM result: a pass if any signature passed, else a failure, else what the first one says. */
function bestOf(words: (ResultWord | null)[]): ResultWord | null {
  return words.find((w) => w === "pass") ?? words.find((w) => w === "fail") ?? words[0] ?? null;
}

/** The domain of an address, or a bare domain, in lower case. */
const domainOf = (address: string) => (address.split("@").pop() ?? "").toLowerCase();

async function checked(
  raw: Buffer,
  fromAddress: string,
  client: SpfClient | null,
  resolver: Lookup,
  mta: string,
): Promise<SenderChecks> {
  // mailauth is loaded with the first message checked, not at start.
  const { arc, dkimVerify, dmarc, spf } = await import("mailauth");
  const dkim = await dkimVerify(raw, { resolver });
  const spfResult = client
    ? await spf({ ip: client.ip, helo: client.helo, sender: client.sender || undefined, mta, resolver })
    : null;
  /** The domain SPF passed for: MAIL FROM's, or the HELO's for a bounce. */
  const spfPassed = spfResult?.status.result === "pass" ? spfResult.domain : null;
  const arcResult = await arc(dkim.arc as Parameters<typeof arc>[0], { resolver });
  const passed = dkim.results.filter((r) => r.status.result === "pass");
  const dmarcResult = dkim.headerFrom?.length
    ? await dmarc({
        headerFrom: dkim.headerFrom,
        spfDomains: spfPassed ? [spfPassed] : [],
        dkimDomains: passed.map((r) => ({
          id: r.id,
          domain: r.signingDomain,
          aligned: r.status.aligned,
          underSized: r.status.underSized,
        })),
        arcResult,
        resolver,
      })
    : false;
  const dmarcWord = dmarcResult ? resultWord(dmarcResult.status.result) : null;
  const fromDomain = domainOf(fromAddress);
  const alignedPass = [...(spfPassed ? [spfPassed] : []), ...passed.map((r) => r.signingDomain)].some((domain) =>
    aligned(domain, fromDomain),
  );
  return {
    spf: spfResult ? resultWord(spfResult.status.result) : null,
    dkim: bestOf(dkim.results.map(dkimWord)),
    dmarc: dmarcWord,
    arc: resultWord(arcResult.status.result),
    verdict: sameFrom(dkim.headerFrom, fromAddress) ? verdictOf(dmarcWord, alignedPass) : "fail",
    dkimDomains: passed.map((r) => r.signingDomain.toLowerCase()),
  };
}

/**
 * Whether the checks judged the From the message is filed under: mailauth reads the header section itself, and
 * a message built to be read two ways (a line starting with a bare CR, two From fields, two addresses in one)
 * could have it vouch for one address while another is shown. Such mail fails.
 */
function sameFrom(checkedFrom: string[] | undefined, fromAddress: string): boolean {
  const read = checkedFrom ?? [];
  if (read.length === 0) return fromAddress === "";
  return read.length === 1 && read[0]?.toLowerCase() === fromAddress.toLowerCase();
}

function fromTrustedHeaders(raw: Buffer, fromAddress: string, authservId: string): SenderChecks {
  const results = headerFields(raw)
    .filter((field) => field.name === "authentication-results")
    .map((field) => parseAuthenticationResults(field.value))
    .filter((header) => header?.authservId === authservId)
    .flatMap((header) => header?.results ?? []);
  if (results.length === 0) return NOT_EVALUATED;
  const word = (method: string) => bestOf(results.filter((r) => r.method === method).map((r) => resultWord(r.result)));
  /** The domain a pass vouches for: the DKIM signer's, or SPF's MAIL FROM (the HELO for a bounce). */
  const vouchedFor = ({ method, props }: (typeof results)[number]) =>
    method === "dkim"
      ? (props["header.d"] ?? domainOf(props["header.i"] ?? ""))
      : method === "spf"
        ? domainOf(props["smtp.mailfrom"] || props["smtp.helo"] || "")
        : "";
  const fromDomain = domainOf(fromAddress);
  const alignedPass = results.some((r) => r.result === "pass" && aligned(vouchedFor(r), fromDomain));
  const dkimDomains = results.filter((r) => r.method === "dkim" && r.result === "pass").map(vouchedFor);
  const dmarcWord = word("dmarc");
  // The server's DMARC judged the From domain it read: another than the one filed vouches for nothing here.
  const otherFrom = results.some(
    (r) =>
      r.method === "dmarc" &&
      r.props["header.from"] !== undefined &&
      r.props["header.from"].toLowerCase() !== fromDomain,
  );
  return {
    spf: word("spf"),
    dkim: word("dkim"),
    dmarc: dmarcWord,
    arc: word("arc"),
    verdict: otherFrom ? "fail" : verdictOf(dmarcWord, alignedPass),
    dkimDomains: dkimDomains.map((domain) => domain.toLowerCase()),
  };
}
