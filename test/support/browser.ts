import { mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

// Debian's Chromium, driven by playwright-core, for the pages the service
// serves. Every request that would leave the service's origin is blocked and
// recorded, and so is every console error: a page must need neither.

export const SCREENSHOTS = "test/output";

export interface Visit {
  page: Page;
  /** Requests to any other origin, which were blocked. */
  blocked: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** The whole page, or with `fullPage: false` what the window shows. */
  screenshot(name: string, fullPage?: boolean): Promise<void>;
  /** Replaces what the focused editor holds, as a paste would: no auto-closing of brackets and quotes. */
  replaceText(text: string): Promise<void>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
}

/** Opens the URL in a fresh context that lets only its own origin through, and any origins named. */
export async function visit(browser: Browser, url: string, alsoAllowed: string[] = []): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const allowed = new Set([new URL(url).origin, ...alsoAllowed]);
  const blocked: string[] = [];
  const errors: string[] = [];
  await context.route("**/*", (route) => {
    const target = route.request().url();
    if (allowed.has(new URL(target).origin)) return route.continue();
    blocked.push(target);
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  return {
    page,
    blocked,
    errors,
    async screenshot(name, fullPage = true) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage });
    },
    async replaceText(text) {
      await page.evaluate((value) => navigator.clipboard.writeText(value), text);
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Control+V");
    },
    close: () => context.close(),
  };
}
