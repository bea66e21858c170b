/** scimType values of RFC 7644 §3.12 (Table 9) and RFC 9865 that this target answers. */
export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidCursor"
  | "expiredCursor";

/**
 * A failure that becomes a SCIM error response (RFC 7644 §3.12). Thrown anywhere below a
 * route and turned into the body by the app's error handler, so every error takes the one
 * path that shapes it (and that the status-number and error-stack-trace faults alter).
 * `detail` is short human text: it never carries internals (specs/002 area C Errors).
 */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    readonly detail: string,
    /** Extra response headers, such as WWW-Authenticate or Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    // Stryker disable next-line StringLiteral: the error's name never reaches a response (the body is built from status, scimType and detail)
    this.name = "ScimError";
  }
}

/** 400 with a scimType: the common client mistake. */
export const badRequest = (scimType: ScimType, detail: string): ScimError =>
  new ScimError(400, scimType, detail);

/** 404 for an id this service provider does not hold (RFC 7644 §3.12). */
export const notFound = (what: string): ScimError => new ScimError(404, undefined, `${what} not found`);
