import { existsSync } from "node:fs";
import { chromium, type Browser, type Page, type Request } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../src/http/chromium.js";
import { BrowserStepError, WalletError } from "./errors.js";
import { redactUrl, scrub } from "./redact.js";

/** One thing the End-User does on the Authorization Server's pages; exactly one member is set. */
export interface BrowserStep {
  goto?: string;
  fill?: { selector: string; value: string };
  click?: string;
  waitFor?: string;
}

function describeStep(s: BrowserStep, secrets: readonly string[]): string {
  if (s.goto !== undefined) return `goto ${redactUrl(s.goto, secrets)}`;
  if (s.fill) return `fill ${s.fill.selector}`;
  if (s.click !== undefined) return `click ${s.click}`;
  if (s.waitFor !== undefined) return `waitFor ${s.waitFor}`;
  return "empty step";
}

async function runStep(page: Page, s: BrowserStep, timeout: number): Promise<void> {
  if (s.goto !== undefined) await page.goto(s.goto, { timeout, waitUntil: "domcontentloaded" });
  else if (s.fill) await page.fill(s.fill.selector, s.fill.value, { timeout });
  else if (s.click !== undefined) await page.click(s.click, { timeout });
  else if (s.waitFor !== undefined) await page.waitForSelector(s.waitFor, { timeout });
  else throw new Error("the step names no action");
}

/** Whether a request belongs to the page's main frame (a service worker's has no frame: it throws). */
function inMainFrame(r: Request, p: Page): boolean {
  try {
    return r.frame() === p.mainFrame();
  } catch {
    return false;
  }
}

/** The first line of a Playwright message (the rest is a call log that may quote page content). */
const firstLine = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e)).split("\n", 1)[0] ?? "";

/** How long before the overall deadline page work gives up (see `inner`). */
const STEP_MARGIN_MS = 300;

/**
 * Plays the End-User in the Authorization Code Flow (specs/000 Rules 4): opens the
 * authorization URL in headless Chromium, runs the steps (log in, consent) and stops as soon
 * as the browser is sent to the redirect URI, returning that URL (with the code) and a
 * redacted trail of the pages visited. The redirect is caught from the navigation request,
 * which also covers a server-side 302 that a route handler would not see. One browser per
 * call, always closed; every failure is a WalletError naming the step and the page, with
 * secrets (and the values typed into fields) as `***`.
 */
export async function authorizeInBrowser(o: {
  authorizationUrl: string;
  steps: readonly BrowserStep[];
  redirectUri: string;
  timeoutMs: number;
  /**
   * base64 SHA-256 hashes of public keys (SPKI) whose certificate chains the browser accepts
   * although it does not know their CA: the keys of the profile's private CA file.
   */
  trustedSpki?: readonly string[];
  secrets?: readonly string[];
}): Promise<{ redirectedTo: string; trail: string[] }> {
  const secrets = [...(o.secrets ?? []), ...o.steps.flatMap((s) => (s.fill ? [s.fill.value] : []))];
  const executablePath = CHROMIUM_PATH;
  if (!existsSync(executablePath))
    throw new BrowserStepError(`no Chromium at ${executablePath}; install it or set CHROMIUM_PATH`);
  const deadline = Date.now() + o.timeoutMs;
  const left = (): number => Math.max(1, deadline - Date.now());
  // Page work ends a little before the overall deadline, so a step that cannot be done is
  // reported as that step (with its selector) rather than as a bare timeout.
  const inner = (): number => Math.max(1, left() - STEP_MARGIN_MS);
  const trail: string[] = [];
  let browser: Browser | undefined;
  let timer: NodeJS.Timeout | undefined;
  let at = "opening the authorization URL";
  let page: Page | undefined;
  const fail = (what: string, harness = false): WalletError => {
    const message = scrub(`${what}; page at ${redactUrl(page?.url() ?? "about:blank", secrets)}`, secrets);
    return harness ? new BrowserStepError(message) : new WalletError(message);
  };
  try {
    const pins = (o.trustedSpki ?? []).filter((h) => /^[A-Za-z0-9+/]{43}=$/.test(h));
    const args =
      pins.length > 0
        ? [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${pins.join(",")}`]
        : [...CHROMIUM_ARGS];
    try {
      browser = await chromium.launch({ executablePath, headless: true, args, timeout: left() });
    } catch (e) {
      throw fail(`Chromium did not start: ${firstLine(e)}`, true);
    }
    const context = await browser.newContext();
    const p = await context.newPage();
    page = p;
    let redirectedTo: string | undefined;
    const redirected = new Promise<string>((resolve) => {
      const onRequest = (r: Request): void => {
        if (!r.isNavigationRequest() || !inMainFrame(r, p)) return;
        trail.push(redactUrl(r.url(), secrets));
        if (redirectedTo === undefined && r.url().startsWith(o.redirectUri)) {
          redirectedTo = r.url();
          resolve(r.url());
        }
      };
      p.on("request", onRequest);
    });
    const steps = (async (): Promise<string> => {
      try {
        await p.goto(o.authorizationUrl, { timeout: inner(), waitUntil: "domcontentloaded" });
        for (const [i, s] of o.steps.entries()) {
          if (redirectedTo !== undefined) break;
          at = `step ${i} (${describeStep(s, secrets)})`;
          await runStep(p, s, inner());
        }
      } catch (e) {
        if (redirectedTo !== undefined) return redirectedTo;
        // A step that cannot be carried out (its selector never appears) says the profile's
        // steps do not fit the pages; the issuer's flow itself was not observed.
        throw fail(`${at} failed: ${firstLine(e)}`, true);
      }
      at = `waiting for the redirect to ${o.redirectUri} after the last step`;
      return redirected;
    })();
    steps.catch(() => undefined);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            fail(`timed out after ${o.timeoutMs} ms at ${at}`, !at.startsWith("waiting for the redirect")),
          ),
        left(),
      );
    });
    const to = await Promise.race([redirected, steps, timedOut]);
    return { redirectedTo: to, trail };
  } catch (e) {
    if (e instanceof WalletError) throw e;
    throw fail(`browser failed at ${at}: ${firstLine(e)}`, true);
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => undefined);
  }
}
