import { getDomain } from "tldts";

// Who really sent a received email, as far as SPF, DKIM, DMARC and ARC tell:
// each a result word as Authentication-Results writes it, or null when it was
// not evaluated, and one verdict an agent can act on.

export const RESULT_WORDS = [
  "pass",
  "fail",
  "softfail",
  "neutral",
  "none",
  "temperror",
  "permerror",
  "policy",
] as const;
export type ResultWord = (typeof RESULT_WORDS)[number];
export type Verdict = "pass" | "fail" | "none";

export interface Authentication {
  spf: ResultWord | null;
  dkim: ResultWord | null;
  dmarc: ResultWord | null;
  arc: ResultWord | null;
  verdict: Verdict;
}

/** The checks as filing takes them: what the email keeps, and the domains whose DKIM signatures passed (lower case). */
export interface SenderChecks extends Authentication {
  dkimDomains: string[];
}

export const NOT_EVALUATED: SenderChecks = {
  spf: null,
  dkim: null,
  dmarc: null,
  arc: null,
  verdict: "none",
  dkimDomains: [],
};

/** A result word, or null for anything else (mailauth's `temperr` is temperror). */
export function resultWord(word: string | undefined): ResultWord | null {
  const lower = word?.toLowerCase() === "temperr" ? "temperror" : word?.toLowerCase();
  return RESULT_WORDS.find((known) => known === lower) ?? null;
}

/**
 * DMARC's word when the domain has a policy; else a pass when SPF or DKIM passed for the From domain (aligned:
 * the envelope sender's or the signer's domain is of the same organization), as DMARC itself would count it.
 */
export function verdictOf(dmarc: ResultWord | null, alignedPass: boolean): Verdict {
  if (dmarc === "pass" || dmarc === "fail") return dmarc;
  return alignedPass ? "pass" : "none";
}

/**
 * DMARC's relaxed alignment: the same organizational domain, by the public suffix list with its private part
 * (as DMARC counts it, and mailauth with it): a.duckdns.org and b.duckdns.org are two organizations.
 */
export function aligned(signingDomain: string, fromDomain: string): boolean {
  const organization = (domain: string) =>
    getDomain(domain.toLowerCase(), { allowPrivateDomains: true }) ?? domain.toLowerCase();
  return signingDomain !== "" && organization(signingDomain) === organization(fromDomain);
}
