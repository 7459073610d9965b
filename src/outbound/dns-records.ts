import { Resolver } from "node:dns/promises";

// What DNS says of a name now, for checking the records an operator
// published: DNS_SERVERS or the system's resolvers, nothing kept. A name or
// record that does not exist is an empty answer; a failure to ask throws.

export interface RecordLookup {
  /** "priority host" for each MX record. */
  mx(name: string): Promise<string[]>;
  /** Each TXT record, its strings joined. */
  txt(name: string): Promise<string[]>;
}

const ABSENT = new Set(["ENOTFOUND", "ENODATA"]);

async function orNone<T>(answer: Promise<T[]>): Promise<T[]> {
  try {
    return await answer;
  } catch (error) {
    if (ABSENT.has((error as { code?: string }).code ?? "")) return [];
    throw error;
  }
}

export function recordLookup(servers: string[] | null): RecordLookup {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (servers) resolver.setServers(servers);
  return {
    mx: async (name) =>
      (await orNone(resolver.resolveMx(name))).map((mx) => `${mx.priority} ${mx.exchange.toLowerCase()}`),
    txt: async (name) => (await orNone(resolver.resolveTxt(name))).map((strings) => strings.join("")),
  };
}
