import { Parser } from "htmlparser2";

// The links of a message, in document order: from its HTML anchors when it
// has HTML, else the URLs written in its text. http and https only, each once.
// And, for a person about to let a message go, everything its HTML points at
// or would load, as written, whatever the scheme.

/** A type, not an interface: an email keeps its links in a Json field, whose type takes only what has an index signature. */
export type Link = {
  url: string;
  text: string;
};

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

/** What an HTML body links to (anchors, image maps) and what it would load (images, styles, frames), as written. */
export interface HtmlTargets {
  links: string[];
  loads: string[];
}

const MAX_TARGETS = 200;
const CSS_URL = /url\(\s*(['"]?)([^'")]*)\1\s*\)/gi;
/** Attributes whose value is a resource the element loads. */
const LOADED = ["src", "background", "poster", "data", "lowsrc", "dynsrc"];

/** Each target once, in document order, at most MAX_TARGETS of each. */
export function targetsOf(html: string): HtmlTargets {
  const links = new Set<string>();
  const loads = new Set<string>();
  const add = (into: Set<string>, value: string | undefined) => {
    const target = value?.trim();
    if (target && into.size < MAX_TARGETS) into.add(target);
  };
  const addCss = (css: string) => {
    for (const [, , url] of css.matchAll(CSS_URL)) add(loads, url);
  };
  let inStyle = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        inStyle = name === "style";
        if (name === "a" || name === "area") add(links, attributes.href);
        if (name === "link") add(loads, attributes.href);
        for (const attribute of LOADED) add(loads, attributes[attribute]);
        for (const candidate of (attributes.srcset ?? "").split(",")) add(loads, candidate.trim().split(/\s+/)[0]);
        if (attributes.style) addCss(attributes.style);
      },
      ontext(text) {
        if (inStyle) addCss(text);
      },
      onclosetag(name) {
        if (name === "style") inStyle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { links: [...links], loads: [...loads] };
}
