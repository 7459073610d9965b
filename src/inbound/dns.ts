import { Resolver } from "node:dns/promises";

// The DNS that sender authentication asks: DNS_SERVERS, or the system's.
// Answers, "no such name" too, are kept a minute, so a burst of mail from one
// domain asks for its keys and policies once.

export type Lookup = (name: string, type: string) => Promise<string[][] | string[]>;

const KEEP_MS = 60_000;
const MAX_KEPT = 10_000;

export function dnsLookup(servers: string[] | null): Lookup {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (servers) resolver.setServers(servers);
  const kept = new Map<string, { until: number; answer: Promise<string[][] | string[]> }>();
  return (name, type) => {
    const key = `${type} ${name.toLowerCase()}`;
    const hit = kept.get(key);
    if (hit && hit.until > Date.now()) return hit.answer;
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
    const answer = resolver.resolve(name, type) as Promise<string[][] | string[]>;
    // "No such name" and "no such record" are answers and kept; a timeout or a refusal is asked again.
    answer.catch((error: { code?: string }) => {
      if (error.code !== "ENOTFOUND" && error.code !== "ENODATA") kept.delete(key);
    });
    kept.set(key, { until: Date.now() + KEEP_MS, answer });
    return answer;
  };
}
