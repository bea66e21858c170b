import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { HarnessError } from "../engine/errors.js";

/** Suites whose checks drive a browser (the credential issuance suite's authorization code flow). */
export const BROWSER_SUITES: ReadonlySet<string> = new Set(["vci"]);

export const CHROMIUM_INSTALL = "apt-get update && apt-get install -y --no-install-recommends chromium";
const CHROMIUM_INSTALL_SUDO =
  "sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium";

export interface ChromiumEnv {
  /** CHROMIUM_PATH as set, or undefined for Debian's /usr/bin/chromium. */
  readonly configured: string | undefined;
  readonly exists: (path: string) => boolean;
  readonly isRoot: boolean;
  /** Runs a shell command quietly; true when it succeeded. */
  readonly sh: (command: string) => boolean;
  readonly say: (line: string) => void;
}

export function hostChromiumEnv(say: (line: string) => void): ChromiumEnv {
  return {
    configured: process.env.CHROMIUM_PATH,
    exists: existsSync,
    isRoot: typeof process.getuid === "function" && process.getuid() === 0,
    sh: (command) =>
      spawnSync("sh", ["-c", command], { stdio: ["ignore", "ignore", "inherit"] }).status === 0,
    say,
  };
}

/**
 * Makes sure of Chromium before a run whose suites need it, the way `npm test` does: Debian's
 * /usr/bin/chromium, installed with apt-get when missing and running as root. Otherwise (not
 * root, no apt-get, or CHROMIUM_PATH pointing at nothing) it stops before anything starts,
 * with the one command to run. No browser is ever downloaded.
 */
export function ensureChromium(suites: readonly string[], env: ChromiumEnv): void {
  const needing = suites.filter((s) => BROWSER_SUITES.has(s));
  if (needing.length === 0) return;
  const path = env.configured ?? "/usr/bin/chromium";
  if (env.exists(path)) return;
  const why = `Chromium is missing at ${path} (the ${needing.join(", ")} suite's browser step needs it)`;
  if (env.configured !== undefined)
    throw new HarnessError(
      "IDC_SETUP",
      `${why}: CHROMIUM_PATH names no file; fix it, or unset it to use Debian's chromium`,
    );
  if (!env.isRoot || !env.exists("/usr/bin/apt-get"))
    throw new HarnessError("IDC_SETUP", `${why}; install it with: ${CHROMIUM_INSTALL_SUDO}`);
  env.say(`${why}: installing Debian's chromium (${CHROMIUM_INSTALL})`);
  if (!env.sh(CHROMIUM_INSTALL) || !env.exists(path))
    throw new HarnessError("IDC_SETUP", `installing Chromium failed; run it by hand: ${CHROMIUM_INSTALL}`);
}
