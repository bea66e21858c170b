import type { FaultSet } from "../faults.js";
import { SetError } from "../set/errors.js";
import type { SetErrorCode } from "../ssf.js";

/** The error a Transmitter is told (RFC 8935 §2.4 body, RFC 8936 `setErrs` entry). */
export interface PublicError {
  readonly err: SetErrorCode;
  readonly description: string;
}

/**
 * What the Transmitter learns of a refusal: the error code and the short description the
 * validator chose, nothing of the Receiver's internals. A failure that is no SetError (a bug)
 * is told as invalid_request without detail.
 */
export function publicError(e: unknown, faults: FaultSet): PublicError {
  const known = e instanceof SetError;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent in a run: every refusal is a SetError (another failure is a bug of this Receiver, which no run meets), and the rest is the err-always-invalid-request fault
  const err = !known || faults.has("err-always-invalid-request") ? "invalid_request" : e.err;
  if (faults.has("stack-in-error") && e instanceof Error) return { err, description: String(e.stack) };
  return { err, description: known ? e.description : "the SET could not be processed" };
}
