import { existsSync } from "node:fs";
import { chromium, type Browser, type Page, type Request } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../src/http/chromium.js";
import { quote } from "../../src/engine/quote.js";
import { BrowserStepError, BrowserUnreachableError, WalletError } from "./errors.js";
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
/** A page load given at least this long and still not done is the target's slowness. */
const FAIR_LOAD_MS = 2000;
/** Longest the browser spends reading what a page shows for an error message. */
const DESCRIBE_MS = 1500;

/** A page load that failed for a reason other than a newer navigation replacing it. */
const loadFailed = (errorText: string): boolean => errorText !== "" && !/ERR_ABORTED/.test(errorText);

/** Resolves to `fallback` when `p` takes longer than `ms` (or fails). */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p.catch(() => fallback),
    new Promise<T>((resolve) => (t = setTimeout(() => resolve(fallback), ms))),
  ]).finally(() => clearTimeout(t));
}

/** A page that showed something the flow did not expect: its main document's answer. */
interface Shown {
  readonly url: string;
  readonly status: number;
}

/**
 * Plays the End-User in the Authorization Code Flow (specs/000 Rules 4): opens the
 * authorization URL in headless Chromium, runs the steps (log in, consent) and stops as soon
 * as the browser is sent to the redirect URI, returning that URL (with the code) and a
 * redacted trail of the pages visited. The redirect is caught from the navigation request,
 * which also covers a server-side 302 that a route handler would not see. One browser per
 * call, always closed; every failure is a WalletError naming the step, the page and what it
 * showed (its HTTP status, title and the start of its text), with secrets (and the values
 * typed into fields) as `***`:
 *
 * - a page answering 5xx, or no redirect after the last step: WalletError (the issuer's flow
 *   failed: a finding);
 * - a page answering 4xx, a step whose selector never appears, no Chromium:
 *   BrowserStepError (the steps or the setup do not fit the pages: nothing judged);
 * - a page that cannot be loaded at all (DNS, connection, TLS): BrowserUnreachableError.
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
  // The main frame's latest document answer, and its latest load that failed outright.
  let lastDocument: Shown | undefined;
  let lastFailure: { url: string; errorText: string } | undefined;
  /** What the page shows now: its HTTP status, title and the start of its text; never throws. */
  const describe = async (p: Page): Promise<string> => {
    const title = await within(p.title(), DESCRIBE_MS, "");
    const text = await within(p.innerText("body", { timeout: DESCRIBE_MS }), DESCRIBE_MS + 100, "");
    const parts = [
      lastDocument && lastDocument.url === p.url() ? `HTTP ${lastDocument.status}` : undefined,
      title.trim() ? `title ${quote(title.trim(), 100)}` : undefined,
      `text ${text.trim() ? quote(text.replace(/\s+/g, " ").trim(), 200) : "(none)"}`,
    ].filter((x): x is string => x !== undefined);
    return parts.join(", ");
  };
  const fail = async (
    what: string,
    kind: "issuer" | "steps" | "unreachable" = "issuer",
    o: { errorText?: string; pageUrl?: string } = {},
  ): Promise<WalletError> => {
    // An unreachable page shows only Chromium's own error page: the URL and the code say it all.
    let where = "";
    if (kind !== "unreachable" && page !== undefined) {
      const shown = await describe(page);
      where = `; page at ${redactUrl(o.pageUrl ?? page.url(), secrets)} (${shown})`;
    }
    const message = scrub(`${what}${where}`, secrets);
    if (kind === "unreachable") return new BrowserUnreachableError(message, o.errorText ?? "");
    return kind === "steps" ? new BrowserStepError(message) : new WalletError(message);
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
      throw await fail(`Chromium did not start: ${firstLine(e)}`, "steps");
    }
    const context = await browser.newContext();
    const p = await context.newPage();
    page = p;
    let redirectedTo: string | undefined;
    // A page that answers with an HTTP error, or cannot be loaded, ends the flow at once: no
    // later step can fit it, and waiting for a selector that never comes only hides why.
    let brokenPage: (shown: Shown | { url: string; errorText: string }) => void = () => undefined;
    const broken = new Promise<Shown | { url: string; errorText: string }>(
      (resolve) => (brokenPage = resolve),
    );
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
    let errorDocument: Shown | undefined;
    p.on("response", (r) => {
      const req = r.request();
      if (!req.isNavigationRequest() || !inMainFrame(req, p) || redirectedTo !== undefined) return;
      lastDocument = { url: r.url(), status: r.status() };
      if (r.status() >= 400) {
        const shown = (errorDocument = lastDocument);
        // The error page is read once it is there (below), not the page it replaces; should
        // it never load, it is reported as it is.
        setTimeout(() => brokenPage(shown), 2 * DESCRIBE_MS).unref();
      }
    });
    p.on("domcontentloaded", () => {
      if (errorDocument !== undefined) brokenPage(errorDocument);
    });
    p.on("requestfailed", (r) => {
      if (!r.isNavigationRequest() || !inMainFrame(r, p) || redirectedTo !== undefined) return;
      const errorText = r.failure()?.errorText ?? "";
      if (!loadFailed(errorText)) return;
      // An HTTP error with an empty body also "fails" in Chromium: it is an answer, not unreachable.
      if (/ERR_HTTP_RESPONSE_CODE_FAILURE/.test(errorText)) {
        const url = r.url();
        void r
          .response()
          .then((res) => brokenPage({ url, status: res?.status() ?? errorDocument?.status ?? 500 }))
          .catch(() => brokenPage(errorDocument ?? { url, status: 500 }));
        return;
      }
      lastFailure = { url: r.url(), errorText };
      brokenPage(lastFailure);
    });
    const unreachable = (f: { url: string; errorText: string }): Promise<WalletError> =>
      fail(`${at}: the browser could not load ${redactUrl(f.url, secrets)} (${f.errorText})`, "unreachable", {
        errorText: f.errorText,
      });
    // The time the current navigation (the authorization URL, or a goto step) was given; 0 for other steps.
    let navBudget = 0;
    const steps = (async (): Promise<string> => {
      try {
        navBudget = inner();
        await p.goto(o.authorizationUrl, { timeout: navBudget, waitUntil: "domcontentloaded" });
        for (const [i, s] of o.steps.entries()) {
          if (redirectedTo !== undefined) break;
          at = `step ${i} (${describeStep(s, secrets)})`;
          navBudget = s.goto !== undefined ? inner() : 0;
          await runStep(p, s, navBudget || inner());
        }
      } catch (e) {
        if (redirectedTo !== undefined) return redirectedTo;
        if (lastFailure !== undefined) throw await unreachable(lastFailure);
        // A page that never finished loading in a fair time is a target that did not answer;
        // with less time left (a slow browser start ate the budget) it says nothing of the target.
        if (e instanceof Error && e.name === "TimeoutError" && navBudget >= FAIR_LOAD_MS)
          throw await fail(`${at}: the page did not load (${firstLine(e)})`, "unreachable", {
            errorText: "timeout",
          });
        // A step that cannot be carried out (its selector never appears) says the profile's
        // steps do not fit the pages; the issuer's flow itself was not observed.
        throw await fail(`${at} failed: ${firstLine(e)}`, "steps");
      }
      at = `waiting for the redirect to ${o.redirectUri} after the last step`;
      return redirected;
    })();
    steps.catch(() => undefined);
    const failed = broken.then(async (b): Promise<never> => {
      if ("errorText" in b) throw await unreachable(b);
      // A server error is the issuer's flow failing; a 4xx refuses what the steps (or the
      // profile's client) sent, which the harness cannot tell from a broken issuer.
      throw await fail(`${at}: the page answered HTTP ${b.status}`, b.status >= 500 ? "issuer" : "steps", {
        pageUrl: b.url,
      });
    });
    failed.catch(() => undefined);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const waiting = at.startsWith("waiting for the redirect");
        // A step given up on just before the deadline is still saying why: let it finish first.
        void within(
          steps.then(
            () => undefined,
            () => undefined,
          ),
          waiting ? 0 : 3 * DESCRIBE_MS,
          undefined,
        )
          .then(() => fail(`timed out after ${o.timeoutMs} ms at ${at}`, waiting ? "issuer" : "steps"))
          .then(reject);
      }, left());
    });
    const to = await Promise.race([redirected, steps, failed, timedOut]);
    return { redirectedTo: to, trail };
  } catch (e) {
    if (e instanceof WalletError) throw e;
    throw await fail(`browser failed at ${at}: ${firstLine(e)}`, "steps");
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => undefined);
  }
}
