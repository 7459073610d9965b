import ipaddr from "ipaddr.js";
import type { DKIMResult } from "mailauth";
import { arc, dkimVerify, dmarc, spf } from "mailauth";
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

// Sender authentication at filing. Either the service checks the message
// itself with mailauth (SPF for the client the receiving server recorded,
// DKIM, ARC, DMARC), or, with TRUSTED_AUTHSERV_ID, it reads the verdicts that
// server wrote; anybody can write an Authentication-Results header, so every
// other server's is ignored.

export type Authenticator = (raw: Buffer, fromAddress: string) => Promise<SenderChecks>;

/** Never throws: mail whose checks break is filed all the same, as not evaluated. */
export function authenticator(config: Config, log: Logger): Authenticator {
  const trusted = config.trustedAuthservId;
  if (trusted !== null) return async (raw, fromAddress) => fromTrustedHeaders(raw, fromAddress, trusted);
  const lookup = dnsLookup(config.dnsServers);
  return (raw) =>
    checked(raw, lookup, config.mailDomain).catch((error) => {
      log("warn", "authentication_failed", { error: describeFault(error) });
      return NOT_EVALUATED;
    });
}

/** The header section's fields of one name, unfolded, in order (the newest first). */
function headerFields(raw: Buffer, name: string): string[] {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, end < 0 ? raw.length : end).toString("latin1");
  const prefix = `${name.toLowerCase()}:`;
  return head
    .split(/\r?\n(?![ \t])/)
    .filter((line) => line.slice(0, prefix.length).toLowerCase() === prefix)
    .map((line) =>
      line
        .slice(prefix.length)
        .replace(/\r?\n[ \t]+/g, " ")
        .trim(),
    );
}

/** The client that handed the message to the receiving side: the newest Received hop from outside. */
function clientOf(received: string[]): { ip: string; helo: string } | null {
  for (const hop of received) {
    const from = /^from\s+(\S+)([\s\S]*?)(?:\sby\s|;|$)/i.exec(hop);
    const ip = from?.[2] && /\[(?:IPv6:)?([0-9a-f:.]+)\]/i.exec(from[2])?.[1];
    if (!from?.[1] || !ip || !ipaddr.isValid(ip)) continue;
    if (["loopback", "private", "linkLocal", "uniqueLocal", "unspecified"].includes(ipaddr.process(ip).range())) {
      continue;
    }
    return { ip: ipaddr.process(ip).toString(), helo: from[1] };
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

async function checked(raw: Buffer, resolver: Lookup, mta: string): Promise<SenderChecks> {
  const dkim = await dkimVerify(raw, { resolver });
  const client = clientOf(headerFields(raw, "received"));
  const spfResult = client
    ? await spf({ ip: client.ip, helo: client.helo, sender: dkim.envelopeFrom || undefined, mta, resolver })
    : null;
  const arcResult = await arc(dkim.arc as Parameters<typeof arc>[0], { resolver });
  const passed = dkim.results.filter((r) => r.status.result === "pass");
  const dmarcResult = dkim.headerFrom?.length
    ? await dmarc({
        headerFrom: dkim.headerFrom,
        spfDomains: spfResult?.status.result === "pass" ? [spfResult.domain] : [],
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
  return {
    spf: spfResult ? resultWord(spfResult.status.result) : null,
    dkim: bestOf(dkim.results.map(dkimWord)),
    dmarc: dmarcWord,
    arc: resultWord(arcResult.status.result),
    verdict: verdictOf(
      dmarcWord,
      passed.some((r) => Boolean(r.status.aligned)),
    ),
    dkimDomains: passed.map((r) => r.signingDomain.toLowerCase()),
  };
}

function fromTrustedHeaders(raw: Buffer, fromAddress: string, authservId: string): SenderChecks {
  const results = headerFields(raw, "authentication-results")
    .map(parseAuthenticationResults)
    .filter((header) => header?.authservId === authservId)
    .flatMap((header) => header?.results ?? []);
  if (results.length === 0) return NOT_EVALUATED;
  const word = (method: string) => bestOf(results.filter((r) => r.method === method).map((r) => resultWord(r.result)));
  const fromDomain = fromAddress.split("@").pop() ?? "";
  const signers = results
    .filter((r) => r.method === "dkim" && r.result === "pass")
    .map((r) => (r.props["header.d"] ?? r.props["header.i"]?.split("@").pop() ?? "").toLowerCase());
  const alignedDkimPass = signers.some((signer) => aligned(signer, fromDomain));
  const dmarcWord = word("dmarc");
  return {
    spf: word("spf"),
    dkim: word("dkim"),
    dmarc: dmarcWord,
    arc: word("arc"),
    verdict: verdictOf(dmarcWord, alignedDkimPass),
    dkimDomains: signers,
  };
}
