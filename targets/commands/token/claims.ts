import { invalidRequest } from "../http/reply.js";
import { LIMITS } from "../limits.js";

/** What the standard claims of a Command Token are compared with. */
export interface ClaimRules {
  /** The Command Endpoint URL: `aud` must equal it exactly; undefined skips the comparison. */
  readonly audience: string | undefined;
  /** The RP's client_id; undefined skips the comparison. */
  readonly clientId: string | undefined;
  /** Whether an expired token is refused, and whether a nonce claim is. */
  readonly rejectExpired: boolean;
  readonly rejectNonce: boolean;
  /** Whether jti is required (it is; the `jti-optional` fault lets it be missing). */
  readonly requireJti: boolean;
  readonly now: number;
}

/** The standard claims, checked. */
export interface StandardClaims {
  readonly iss: string;
  /** Undefined only when a fault lets jti be missing. */
  readonly jti: string | undefined;
  readonly exp: number;
  readonly command: string;
  readonly tenant: string;
}

/** A non-empty string of at most `max` characters, or a 400 naming the claim. */
export function identifier(payload: Record<string, unknown>, claim: string): string {
  const value = payload[claim];
  // Stryker disable all: it only picks the error_description
  const problem =
    value === undefined
      ? "is missing"
      : `must be a non-empty string of at most ${LIMITS.maxIdentifierLength} characters`;
  // Stryker restore all
  const bad = (): Error => invalidRequest(`the ${claim} claim ${problem}`);
  if (typeof value !== "string" || value.length === 0) throw bad();
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a length bound of this RP (the document states none)
  if (value.length > LIMITS.maxIdentifierLength) throw bad();
  return value;
}

/** An optional identifier claim: absent is undefined, present must be a proper identifier. */
export const optionalIdentifier = (payload: Record<string, unknown>, claim: string): string | undefined =>
  payload[claim] === undefined ? undefined : identifier(payload, claim);

function numericDate(payload: Record<string, unknown>, claim: string): number {
  const value = payload[claim];
  // Number.isFinite is false for anything but a finite number (and JSON has no NaN or Infinity).
  if (!Number.isFinite(value)) {
    // Stryker disable next-line all: it only picks the error_description
    const problem = value === undefined ? "is missing" : "must be a NumericDate";
    throw invalidRequest(`the ${claim} claim ${problem}`);
  }
  return value as number;
}

/**
 * Checks the claims every Command Token carries (specs/002 area A Command Token;
 * public-spec-facts §3: iss, aud, client_id, iat, exp, jti, command REQUIRED, tenant in the
 * draft-02 baseline, nonce MUST NOT be present). Every failure is 400 invalid_request.
 */
export function checkStandardClaims(payload: Record<string, unknown>, rules: ClaimRules): StandardClaims {
  const iss = identifier(payload, "iss");
  // Stryker disable next-line ConditionalExpression: equivalent: an absent aud differs from the endpoint URL, refused below with the same 400 invalid_request
  if (payload.aud === undefined) throw invalidRequest("the command token lacks the aud claim");
  if (
    payload.aud !== rules.audience &&
    // Stryker disable next-line ConditionalExpression: equivalent: audience is undefined only under the aud-ignored fault
    rules.audience !== undefined
  ) {
    throw invalidRequest("the aud claim is not this Command Endpoint's URL");
  }
  const clientId = identifier(payload, "client_id");
  if (
    clientId !== rules.clientId &&
    // Stryker disable next-line ConditionalExpression: equivalent: clientId is undefined only under the client-id-ignored fault
    rules.clientId !== undefined
  ) {
    throw invalidRequest("the client_id claim is not this RP's client identifier");
  }
  const iat = numericDate(payload, "iat");
  const exp = numericDate(payload, "exp");
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the document sets no rule for an iat in the future (public-spec-facts §3 lists iat as required only)
  if (iat > rules.now + LIMITS.skewSeconds) throw invalidRequest("the iat claim is in the future");
  // Stryker disable next-line EqualityOperator,ArithmeticOperator: the clock skew this RP allows at exp: a few seconds either way, which no verdict may hinge on (the checks' expired token is 10 minutes old)
  if (rules.rejectExpired && exp + LIMITS.skewSeconds <= rules.now) {
    throw invalidRequest("the command token has expired");
  }
  // Stryker disable next-line all: a lifetime bound of this RP: the document does not show the lifetime of a Command Token (Limits), public-spec-facts §3 only encourages two minutes
  if (exp > rules.now + LIMITS.maxTokenLifetimeSeconds + LIMITS.skewSeconds) {
    throw invalidRequest(
      `the command token lives too long: exp must be within ${LIMITS.maxTokenLifetimeSeconds} s`,
    );
  }
  // Stryker disable next-line StringLiteral: the optional branch runs only under the jti-optional fault
  const jti = rules.requireJti ? identifier(payload, "jti") : optionalIdentifier(payload, "jti");
  const command = identifier(payload, "command");
  const tenant = identifier(payload, "tenant");
  if (rules.rejectNonce && payload.nonce !== undefined) {
    throw invalidRequest("a command token must not carry a nonce claim");
  }
  return { iss, jti, exp, command, tenant };
}
