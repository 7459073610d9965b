import { Parser } from "htmlparser2";

// The links of a message, in document order: from its HTML anchors when it
// has HTML, else the URLs written in its text. http and https only, each once.

export interface Link {
  url: string;
  text: string;
}

const MAX_LINKS = 100;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'()[\]{}]+[^\s<>"'()[\]{}.,;:!?]/gi;

function webUrl(href: string): string | null {
  try {
    const url = new URL(href.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function anchorsOf(html: string): Link[] {
  const links: Link[] = [];
  let open: { href: string; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "a") open = { href: attributes.href ?? "", text: "" };
      },
      ontext(text) {
        if (open) open.text += text;
      },
      onclosetag(name) {
        if (name !== "a" || !open) return;
        const url = webUrl(open.href);
        if (url) links.push({ url, text: open.text.replace(/\s+/g, " ").trim() });
        open = null;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return links;
}

function urlsOf(text: string): Link[] {
  return [...text.matchAll(URL_IN_TEXT)].flatMap(([match]) => {
    const url = webUrl(match);
    return url ? [{ url, text: match }] : [];
  });
}

export function linksOf(bodyText: string | null, bodyHtml: string | null): Link[] {
  const found = bodyHtml?.trim() ? anchorsOf(bodyHtml) : urlsOf(bodyText ?? "");
  const seen = new Set<string>();
  return found.filter((link) => !seen.has(link.url) && seen.add(link.url)).slice(0, MAX_LINKS);
}
