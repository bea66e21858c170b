/**
 * What the mock Wallet throws when it cannot go on: an issuer answer it cannot parse at all,
 * a browser step that failed, a size bound that was crossed. Checks turn it into a finding;
 * it never carries a secret (callers scrub messages before they build one).
 */
export class WalletError extends Error {
  override readonly name = "WalletError";
}

/**
 * The browser step could not be carried out by the harness or as the profile describes it (no
 * Chromium, a launch failure, a step whose selector never appears): nothing about the issuer
 * was observed, so a check reports it as an error, never as a failure of the target.
 */
export class BrowserStepError extends WalletError {}
