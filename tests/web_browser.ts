/**
 * Helpers for the browser tests of the web client: Debian's Chromium driven by the npm
 * package playwright-core (never a downloaded browser), axe-core for accessibility, and
 * screenshots for review under the system's temporary directory (ursamu-screenshots/).
 */
import { type Browser, chromium, type Page } from "playwright-core";
import axe from "axe-core";
import { join } from "node:path";
import { tmpdir } from "node:os";

/** Where Debian installs Chromium (`apt-get install chromium`). */
export const CHROMIUM = "/usr/bin/chromium";

/** True when the browser is installed; browser tests are ignored (with the reason) otherwise. */
export const HAS_CHROMIUM = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

/** The name suffix that says why a browser test did not run. */
export const SKIP_NOTE = HAS_CHROMIUM
  ? ""
  : ` (ignored: ${CHROMIUM} is absent; apt-get install chromium)`;

/** Phone and desktop sizes of the screenshots. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Starts headless Chromium. */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

/** Errors the page threw and what it logged as errors (a CSP refusal shows up here). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** A violation axe found, shortened for an assertion message. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core on the page and answers its serious and critical violations. The script is
 * evaluated through the debugging protocol, which the page's CSP does not govern; the page
 * itself still runs under its real policy.
 */
export async function axeSerious(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe);
  if (loaded !== "object") await page.evaluate(axe.source);
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const g = globalThis as any;
    const r = await g.axe.run(g.document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
      },
    });
    // deno-lint-ignore no-explicit-any
    return r.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical")
      // deno-lint-ignore no-explicit-any
      .map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        // deno-lint-ignore no-explicit-any
        nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(" ")),
      }));
  });
}

/** Where screenshots go: outside the checkout, as everything a test writes. */
export const SCREENSHOT_DIR = join(tmpdir(), "ursamu-screenshots");

/** Writes a screenshot to SCREENSHOT_DIR/<name>.png for review (never compared). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = SCREENSHOT_DIR;
  await Deno.mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}
