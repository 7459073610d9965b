// Reads an Authentication-Results header (RFC 8601): who wrote it, and each
// method's result with its properties. Comments are dropped; quoted values
// may hold semicolons and spaces.

export interface MethodResult {
  method: string;
  result: string;
  /** `header.d`, `smtp.mailfrom`, `reason`, …, lower-case names. */
  props: Record<string, string>;
}

export interface AuthenticationResults {
  authservId: string;
  results: MethodResult[];
}

/** The value without its (comments), which may nest; quoted text is kept as it is. */
function withoutComments(value: string): string {
  let out = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (c === "\\" && (quoted || depth > 0)) {
      if (depth === 0) out += c + (value[i + 1] ?? "");
      i++;
    } else if (quoted) {
      out += c;
      if (c === '"') quoted = false;
    } else if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (depth > 0) continue;
    else {
      if (c === '"') quoted = true;
      out += c;
    }
  }
  return out;
}

const SEGMENT = /(?:"(?:[^"\\]|\\.)*"|[^;"])+/g;
const PAIR = /([^\s=]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s"]+)/g;

const unquote = (value: string) => (value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value);

export function parseAuthenticationResults(value: string): AuthenticationResults | null {
  const [head, ...rest] = (withoutComments(value).match(SEGMENT) ?? []).map((segment) => segment.trim());
  const authservId = head?.split(/\s+/)[0]?.toLowerCase();
  if (!authservId) return null;
  const results = rest.flatMap((segment): MethodResult[] => {
    const [first, ...pairs] = [...segment.matchAll(PAIR)];
    if (!first?.[1] || !first[2]) return [];
    const props = Object.fromEntries(pairs.map(([, key = "", v = ""]) => [key.toLowerCase(), unquote(v)]));
    return [{ method: first[1].split("/")[0]?.toLowerCase() ?? "", result: unquote(first[2]).toLowerCase(), props }];
  });
  return { authservId, results };
}
