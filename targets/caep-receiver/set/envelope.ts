import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { invalidRequest, SetError } from "./errors.js";

export interface EnvelopeContext {
  /** The Transmitter's issuer: the only `iss` accepted (SSF 1.0 §7.1). */
  readonly issuer: string;
  /** This Receiver's audience: `aud` must be it or an array containing it. */
  readonly audience: string;
  readonly faults: FaultSet;
  readonly nowSeconds: () => number;
}

/** The iss-trailing-slash-normalised fault: both sides lose their trailing slashes before they are compared. */
const withoutSlash = (v: unknown): unknown => (typeof v === "string" ? v.replace(/\/+$/, "") : v);

/**
 * RFC 8935 §2.4 invalid_issuer: iss is the Transmitter's issuer, the same string (SSF 1.0
 * §4.1.6; RFC 7519 §2 compares without normalising). Read before any key is looked up, so a
 * stranger's SET costs nothing.
 */
export function checkIssuer(payload: Record<string, unknown>, ctx: EnvelopeContext): void {
  if (ctx.faults.has("iss-ignored")) return;
  const same = ctx.faults.has("iss-trailing-slash-normalised")
    ? withoutSlash(payload.iss) === withoutSlash(ctx.issuer)
    : payload.iss === ctx.issuer;
  if (!same) throw new SetError("invalid_issuer", "the SET's iss is not this Receiver's Transmitter");
}

/** RFC 7519 §4.1.3, RFC 8417 §2.2: `aud` is a string or an array of strings; it must name this Receiver. */
function checkAudience(aud: unknown, ctx: EnvelopeContext): void {
  if (ctx.faults.has("aud-ignored")) return;
  const names = ctx.faults.has("aud-string-only") ? [aud] : Array.isArray(aud) ? aud : [aud];
  // The aud-prefix-match fault: a string that starts with the audience is taken for it.
  const named = ctx.faults.has("aud-prefix-match")
    ? names.some((n) => typeof n === "string" && n.startsWith(ctx.audience))
    : names.includes(ctx.audience);
  if (!named) {
    throw new SetError("invalid_audience", "the SET's aud does not name this Receiver");
  }
}

/**
 * The claims of a SET around its events, after the signature verified (RFC 8417 §2.2, SSF 1.0
 * §4): aud names this Receiver; iat is a number not in the future beyond the skew; jti is a
 * non-empty string; txn, when present, a string; and the JWT `sub` and `exp` claims are absent
 * (SSF: the subject is in sub_id, and a SET does not expire). Answers the jti (undefined only
 * under the jti-optional fault).
 */
export function checkEnvelope(payload: Record<string, unknown>, ctx: EnvelopeContext): string | undefined {
  const { faults } = ctx;
  checkAudience(payload.aud, ctx);
  const iat = payload.iat;
  if (iat === undefined && !faults.has("iat-optional")) throw invalidRequest("the SET lacks iat");
  // Number.isFinite is false for every non-number (it does not coerce).
  // Stryker disable next-line ConditionalExpression: equivalent: an absent iat was refused just above (unless the iat-optional fault is on)
  if (iat !== undefined && !Number.isFinite(iat)) {
    throw invalidRequest("the SET's iat is not a number");
  }
  if (
    // iat is a finite number here, or undefined under the iat-optional fault (NaN compares false).
    // Stryker disable next-line EqualityOperator: the clock skew this Receiver allows at iat (LIMITS.skewSeconds, its own choice); no verdict hinges on its last second (the iat-future probe is at least an hour ahead)
    Number(iat) > ctx.nowSeconds() + LIMITS.skewSeconds &&
    !faults.has("iat-future-accepted")
  ) {
    throw invalidRequest("the SET's iat lies in the future");
  }
  const jti = payload.jti;
  if (jti === undefined && !faults.has("jti-optional")) throw invalidRequest("the SET lacks jti");
  if (
    // Stryker disable next-line ConditionalExpression: equivalent: an absent jti was refused just above, unless the jti-optional fault is on
    jti !== undefined &&
    (typeof jti !== "string" ||
      jti === "" ||
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a length bound of this Receiver (the texts state none)
      jti.length > LIMITS.maxIdentifierLength)
  ) {
    throw invalidRequest("the SET's jti is not a non-empty string");
  }
  if ((payload.txn !== undefined || faults.has("txn-required")) && typeof payload.txn !== "string") {
    throw invalidRequest("the SET's txn is not a string");
  }
  if (payload.sub !== undefined && !faults.has("sub-accepted")) {
    throw invalidRequest("a SET must not carry the JWT sub claim (the subject is sub_id)");
  }
  if (payload.exp !== undefined && !faults.has("exp-accepted")) {
    throw invalidRequest("a SET must not carry an exp claim");
  }
  return jti as string | undefined;
}
