/**
 * A failure that becomes an OAuth-style JSON error response (`error`, `error_description`)
 * with Cache-Control: no-store (specs/000 Errors; public-spec-facts §1). Thrown anywhere
 * below an endpoint and shaped by that endpoint's replier, so every error takes one path.
 */
export class VciError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    /** Extra response headers (WWW-Authenticate of a bearer error). */
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    // Stryker disable next-line StringLiteral: unobservable: the name of the thrown class is never sent (the replier writes error and error_description only)
    this.name = "VciError";
  }
}

/** A 400 error with `code`. */
export const badRequest = (code: string, description: string): VciError =>
  new VciError(400, code, description);

/**
 * Keeps only the characters RFC 6749 allows in `error_description` (%x20-21 / %x23-5B /
 * %x5D-7E): no double quote, no backslash, nothing outside printable ASCII.
 */
export const safeDescription = (text: string): string =>
  text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "?").slice(0, 300);
