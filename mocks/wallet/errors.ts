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
 * Chromium, a launch failure, a step whose selector never appears, a page that refuses with a
 * 4xx what the steps sent): nothing about the issuer was judged, so a check reports it as an
 * error naming the step and what the page showed, never as a failure of the target.
 */
export class BrowserStepError extends WalletError {}

/**
 * The browser could not load a page at all (a name that does not resolve, a refused
 * connection, a TLS failure): the target could not be reached, so nothing was observed.
 * `errorText` is Chromium's code (`net::ERR_…`).
 */
export class BrowserUnreachableError extends BrowserStepError {
  constructor(
    message: string,
    readonly errorText: string,
  ) {
    super(message);
  }
}
