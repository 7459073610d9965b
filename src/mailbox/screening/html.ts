import { Parser } from "htmlparser2";
import { getDomain } from "tldts";
import { excerptOf, type Signal, type SignalPlace } from "./signals.ts";
import { phraseSignals } from "./text.ts";

// What an HTML body shows, hides and links to. Its text (shown and hidden,
// comments and the head included, since an agent may read the HTML itself)
// is screened as text is; hidden text is worth a signal of its own when it
// carries words addressed to a model; and a link whose text shows one domain
// while it goes to another is one.
//
// Hidden is what a mail client renders out of sight: display:none,
// visibility:hidden, opacity:0, the `hidden` attribute, a zero height with
// overflow hidden, a font size of 1px or less, text moved far off the page,
// text in the colour of its background (white on the white page by default),
// classes a top-level <style> rule hides that way, comments and the head.
// Ordinary mail hides text too (the preheader a client previews, the other
// layout of a responsive mail), so hidden text alone is no signal.

export interface HtmlReading {
  /** All its text, blocks on lines of their own. */
  text: string;
  /** The text a reader does not see. */
  hidden: string;
  /** The first link whose text shows another domain than its target, if any. */
  misleading: Signal | null;
  /** Elements named as chat-template roles or tool calls (`<system>`, `<tool_call>`), which the parser reads as tags. */
  tags: Signal[];
}

interface Look {
  /** Out of sight for good: no descendant can show it again. */
  gone: boolean;
  invisible: boolean;
  tinyFont: boolean;
  color: string;
  background: string;
}

const PAGE: Look = { gone: false, invisible: false, tinyFont: false, color: "#000000", background: "#ffffff" };
const BLOCKS = new Set(["p", "div", "br", "tr", "td", "th", "li", "table", "h1", "h2", "h3", "h4", "h5", "h6", "hr"]);
const UNREAD = new Set(["script", "style"]);
const ROLE_TAGS = new Set(["system", "system_prompt", "assistant", "instructions", "im_start", "sys"]);
const TOOL_TAGS = new Set(["tool_call", "tool_calls", "tool_use", "function_call", "function_calls", "invoke"]);
const NAMED_COLORS: Record<string, string> = { white: "#ffffff", black: "#000000", transparent: "transparent" };
const MAX_LINKS_READ = 200;
const LINK_TEXT_READ = 300;

/** A colour as `#rrggbb`, `transparent`, or as written when it is neither. */
function colorOf(value: string): string {
  const color = value.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(color);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  const rgb = /^rgba?\((\d{1,3}),\s?(\d{1,3}),\s?(\d{1,3})(?:,\s?([\d.]{1,6}))?\)$/.exec(color.replace(/\s+/g, " "));
  if (rgb) {
    if (rgb[4] !== undefined && Number(rgb[4]) === 0) return "transparent";
    return `#${rgb
      .slice(1, 4)
      .map((part) => Number(part).toString(16).padStart(2, "0"))
      .join("")}`;
  }
  return NAMED_COLORS[color] ?? color;
}

/** A style's declarations, property names lower case, `!important` dropped. */
function declarationsOf(style: string): Map<string, string> {
  const declarations = new Map<string, string>();
  for (const declaration of style.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const value = declaration
      .slice(colon + 1)
      .replace(/!important/i, "")
      .trim()
      .toLowerCase();
    declarations.set(declaration.slice(0, colon).trim().toLowerCase(), value);
  }
  return declarations;
}

const isZero = (value: string | undefined) =>
  value !== undefined && /^0{0,12}(?:\.0{0,12})?(?:px|pt|em|rem|%)?$/.test(value);
const isTiny = (value: string | undefined) =>
  value !== undefined && /^[\d.]{1,12}(?:px|pt)?$/.test(value) && Number.parseFloat(value) <= 1;
const isFarOff = (value: string | undefined) => value !== undefined && Number.parseFloat(value) <= -500;

/** Whether declarations put an element out of sight for good. */
function hides(declarations: Map<string, string>): boolean {
  const overflowHidden = declarations.get("overflow") === "hidden";
  return (
    declarations.get("display") === "none" ||
    isZero(declarations.get("opacity")) ||
    (overflowHidden && (isZero(declarations.get("max-height")) || isZero(declarations.get("height")))) ||
    isFarOff(declarations.get("left")) ||
    isFarOff(declarations.get("top")) ||
    isFarOff(declarations.get("text-indent"))
  );
}

/** The look of an element inside a parent of the given look. */
function lookOf(parent: Look, attributes: Record<string, string>, hiddenClasses: Set<string>): Look {
  const declarations = declarationsOf(attributes.style ?? "");
  const classes = (attributes.class ?? "").split(/\s+/);
  const look = { ...parent };
  look.gone ||= "hidden" in attributes || hides(declarations) || classes.some((name) => hiddenClasses.has(name));
  const visibility = declarations.get("visibility");
  if (visibility) look.invisible = visibility === "hidden" || visibility === "collapse";
  const fontSize = declarations.get("font-size");
  if (fontSize) look.tinyFont = isTiny(fontSize);
  const color = declarations.get("color") ?? attributes.color;
  if (color) look.color = colorOf(color);
  const background =
    declarations.get("background-color") ?? declarations.get("background") ?? attributes.bgcolor ?? undefined;
  // Text over a picture shows whatever its colour: the background is unknown.
  if (attributes.background || /url\(/.test(declarations.get("background-image") ?? background ?? "")) {
    look.background = "picture";
  } else if (background) {
    look.background = colorOf(background.split(/\s+/)[0] ?? "");
  }
  return look;
}

const outOfSight = (look: Look) =>
  look.gone || look.invisible || look.tinyFont || look.color === "transparent" || look.color === look.background;

/** Classes a top-level rule of a <style> hides; rules inside @media apply to some screens only and are left out. */
function addHiddenClasses(css: string, into: Set<string>): void {
  let depth = 0;
  let selectorStart = 0;
  let blockStart = 0;
  for (let at = 0; at < css.length; at++) {
    if (css[at] === "{") {
      if (depth === 0) blockStart = at;
      depth++;
    } else if (css[at] === "}" && depth > 0) {
      depth--;
      if (depth > 0) continue;
      const selector = css.slice(selectorStart, blockStart).trim();
      if (!selector.startsWith("@") && hides(declarationsOf(css.slice(blockStart + 1, at)))) {
        for (const [, name] of selector.matchAll(/(?:^|,)\s{0,20}[a-z0-9]{0,10}\.([\w-]{1,64})\s{0,20}(?=,|$)/gi))
          into.add(name ?? "");
      }
      selectorStart = at + 1;
    }
  }
}

/** The domain a link's text shows: written as a URL, or as a host name starting with www. */
const SHOWN_URL = /^(?:https?:\/\/|www\.)[^\s/?#]{1,253}/i;

function domainOf(url: string): string | null {
  try {
    return getDomain(new URL(/^https?:/i.test(url) ? url : `https://${url}`).hostname);
  } catch {
    return null;
  }
}

function misleadingLink(href: string, text: string): boolean {
  if (!/^https?:\/\//i.test(href.trim())) return false;
  const shown = SHOWN_URL.exec(text.trim());
  if (!shown) return false;
  const shownDomain = domainOf(shown[0]);
  const target = domainOf(href.trim());
  return shownDomain !== null && target !== null && shownDomain !== target;
}

export function readHtml(html: string, where: SignalPlace): HtmlReading {
  const stack: Look[] = [PAGE];
  const hiddenClasses = new Set<string>();
  const tags: Signal[] = [];
  let text = "";
  let hidden = "";
  let unread = 0;
  let css = "";
  let inStyle = false;
  let inHead = 0;
  let anchor: { href: string; text: string } | null = null;
  let anchors = 0;
  const found: { misleading: Signal | null } = { misleading: null };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const look = lookOf(stack.at(-1) ?? PAGE, attributes, hiddenClasses);
        stack.push(look);
        if (UNREAD.has(name)) unread++;
        inStyle = name === "style";
        if (name === "head") inHead++;
        if (BLOCKS.has(name)) {
          text += "\n";
          hidden += "\n";
        }
        const signal = ROLE_TAGS.has(name)
          ? "role_marker"
          : TOOL_TAGS.has(name) || name.startsWith("function=")
            ? "tool_call"
            : null;
        if (signal && !tags.some((tag) => tag.name === signal)) {
          tags.push({ name: signal, where, excerpt: excerptOf(html, parser.startIndex) });
        }
        if (name === "a" && anchors < MAX_LINKS_READ) {
          anchors++;
          anchor = { href: attributes.href ?? "", text: "" };
        }
      },
      ontext(chunk) {
        if (inStyle) css += chunk;
        if (unread > 0) return;
        text += chunk;
        if (inHead > 0 || outOfSight(stack.at(-1) ?? PAGE)) hidden += chunk;
        if (anchor && anchor.text.length < LINK_TEXT_READ) anchor.text += chunk;
      },
      oncomment(comment) {
        text += `\n${comment}\n`;
        hidden += `\n${comment}\n`;
      },
      onclosetag(name) {
        if (stack.length > 1) stack.pop();
        if (UNREAD.has(name)) unread = Math.max(0, unread - 1);
        if (name === "style") {
          inStyle = false;
          addHiddenClasses(css, hiddenClasses);
          css = "";
        }
        if (name === "head") inHead = Math.max(0, inHead - 1);
        if (name === "a" && anchor) {
          if (!found.misleading && misleadingLink(anchor.href, anchor.text)) {
            found.misleading = {
              name: "misleading_link",
              where,
              excerpt: excerptOf(`${anchor.text.trim()} → ${anchor.href.trim()}`, 0),
            };
          }
          anchor = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { text, hidden, misleading: found.misleading, tags };
}

/** hidden_text, when what the HTML hides carries words addressed to a model (any phrase signal), quoting them. */
export function hiddenTextSignals(reading: HtmlReading, where: SignalPlace): Signal[] {
  const [addressed] = phraseSignals(reading.hidden, where);
  return addressed ? [{ name: "hidden_text", where, excerpt: addressed.excerpt }] : [];
}
