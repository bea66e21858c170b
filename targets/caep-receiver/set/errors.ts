import type { SetErrorCode } from "../ssf.js";

/**
 * A refused SET (RFC 8935 §2.4, RFC 8936 §2.4 `setErrs`): the error code and a short
 * description for the Transmitter's operators. The description never carries the token,
 * a key or an internal detail. `status` is the push answer (400 unless a bound or the
 * authorization says otherwise).
 */
export class SetError extends Error {
  constructor(
    readonly err: SetErrorCode,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    // Stryker disable next-line StringLiteral: the exception's name stays in the Receiver
    this.name = "SetError";
  }
}

/** The body is no SET: not a compact JWS of two JSON objects (the `malformed-500` fault's case). */
export class MalformedSet extends SetError {
  constructor(description: string) {
    super("invalid_request", description);
    // Stryker disable next-line StringLiteral: the exception's name stays in the Receiver
    this.name = "MalformedSet";
  }
}

/** RFC 8935 §2.4: the SET cannot be parsed, or an event does not conform to its definition. */
export const invalidRequest = (description: string): SetError => new SetError("invalid_request", description);
/** RFC 8935 §2.4: the key or signature is unacceptable. */
export const invalidKey = (description: string): SetError => new SetError("invalid_key", description);
