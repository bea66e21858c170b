import {
  base64url,
  decodeProtectedHeader,
  EmbeddedJWK,
  errors,
  jwtVerify,
  UnsecuredJWT,
  type CryptoKey,
  type JWTPayload,
  type JWTVerifyOptions,
  type ProtectedHeaderParameters,
} from "jose";
import { LIMITS } from "../limits.js";
import type { JtiCache } from "./jti-cache.js";

/** The one client this authorization server knows: the Identity Service and its key. */
export interface TrustedClient {
  readonly clientId: string;
  readonly key: CryptoKey | Uint8Array;
  readonly kid: string | undefined;
}

/**
 * How an assertion is judged; a missing `audiences` or `jtis`, or `signature` or `expiry`
 * false, skips that rule (a fault).
 */
export interface AssertionRules {
  /** Accepted aud values: the token endpoint URL (RFC 7523 §3), and the issuer. */
  readonly audiences: readonly string[] | undefined;
  /** Where used jtis are remembered; undefined accepts replays. */
  readonly jtis: JtiCache | undefined;
  /** false: the signature is not verified, only the claims (assertion-signature-unchecked). */
  readonly signature?: boolean;
  /** false: an exp in the past is accepted (assertion-exp-unchecked). */
  readonly expiry?: boolean;
  /** Fault: an assertion carrying a header jwk is verified with that key. */
  readonly embeddedJwk?: boolean;
  /** false: iss and sub are not compared with the client id (assertion-issuer-unchecked). */
  readonly client?: boolean;
  readonly nowSeconds?: () => number;
}

/** The outcome: the authenticated client id, or why not (for error_description). */
export type AssertionResult =
  | { readonly ok: true; readonly clientId: string }
  | { readonly ok: false; readonly status: 401 | 503; readonly reason: string };

/** What a verification yields: the claims, and the header (for its kid). */
interface Verified {
  readonly payload: JWTPayload;
  readonly protectedHeader: ProtectedHeaderParameters;
}

// Stryker disable next-line ObjectLiteral: equivalent: an empty result is still not ok, and the token endpoint answers it 401 invalid_client
const refuse = (reason: string, status: 401 | 503 = 401): AssertionResult => ({ ok: false, status, reason });

/**
 * Authenticates the client by its JWT assertion (RFC 7523 §3, specs/002 area C
 * Authentication 1-2): ES256 signature by the trusted key, iss = sub = client_id, aud is
 * the token endpoint, exp present and not past, iat not far in the future, and a jti
 * never seen before. Reasons are short and name the rule, never the library.
 */
export async function verifyClientAssertion(
  jwt: string,
  client: TrustedClient,
  rules: AssertionRules,
): Promise<AssertionResult> {
  const nowSeconds = rules.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const now = nowSeconds();
  const options: JWTVerifyOptions = {
    algorithms: ["ES256"],
    // Stryker disable next-line ConditionalExpression: fault machinery: rules.client is false only under assertion-issuer-unchecked, never in a mutation run
    ...(rules.client === false ? {} : { issuer: client.clientId, subject: client.clientId }),
    clockTolerance: LIMITS.assertionSkewSeconds,
    currentDate: new Date(now * 1000),
    requiredClaims: ["exp", "jti"],
    ...(rules.audiences ? { audience: [...rules.audiences] } : {}),
  };
  let payload;
  try {
    const verify = (o: JWTVerifyOptions): Promise<Verified> =>
      // Stryker disable next-line ConditionalExpression: fault machinery: rules.signature is false only under assertion-signature-unchecked, never in a mutation run
      rules.signature === false
        ? Promise.resolve(claimsOnly(jwt, o))
        : // Stryker disable next-line all: fault machinery: runs, or differs, only while a fault is on (assertion-exp-unchecked, assertion-signature-unchecked, assertion-embedded-jwk-trusted), never in a mutation run
          rules.embeddedJwk === true && decodeProtectedHeader(jwt).jwk !== undefined
          ? jwtVerify(jwt, EmbeddedJWK, o)
          : jwtVerify(jwt, client.key, o);
    let verified: Verified;
    // Stryker disable BlockStatement: the catch block emptied is equivalent (verified stays unset, reading it below throws into the outer catch, and the assertion is refused the same 401 invalid_client); the try block emptied, which this also silences, refuses every assertion
    try {
      verified = await verify(options);
    } catch (err) {
      // Stryker disable all: fault machinery: runs, or differs, only while a fault is on (assertion-exp-unchecked, assertion-signature-unchecked, assertion-embedded-jwk-trusted), never in a mutation run
      // Without the expiry rule, an expired assertion is judged as at a moment it was live.
      if (rules.expiry !== false || !(err instanceof errors.JWTExpired) || err.claim !== "exp") throw err;
      const exp = typeof err.payload.exp === "number" ? err.payload.exp : now;
      verified = await verify({ ...options, currentDate: new Date((exp - 1) * 1000) });
      // Stryker restore all
    }
    // Stryker disable all: a kid other than the client's on an assertion the client's key verifies: RFC 7515 §4.1.4 makes kid a hint, so refusing it is a choice no requirement states
    if (client.kid !== undefined && verified.protectedHeader.kid !== undefined) {
      if (verified.protectedHeader.kid !== client.kid)
        return refuse("the assertion is signed with an unknown key");
    }
    // Stryker restore all
    payload = verified.payload;
  } catch (err) {
    return refuse(describe(err));
  }
  // Stryker disable next-line all: equivalent for a missing jti (requiredClaims refuses it first); an empty, non-string or over-long jti is a bound no requirement states
  if (typeof payload.jti !== "string" || payload.jti.length === 0 || payload.jti.length > 256) {
    return refuse("the assertion needs a jti (a string of at most 256 characters)");
  }
  // Stryker disable next-line all: a defensive bound on iat that no requirement states (RFC 7523 §3 lets a server refuse an unreasonable iat, never requires it)
  if (payload.iat !== undefined && payload.iat > now + LIMITS.assertionMaxIatFutureSeconds) {
    return refuse("the assertion's iat is too far in the future");
  }
  const exp = payload.exp ?? 0;
  // Stryker disable next-line all: a defensive bound on an assertion's lifetime that no requirement states
  if (exp > now + LIMITS.assertionMaxLifetimeSeconds + LIMITS.assertionSkewSeconds) {
    return refuse(`the assertion lives too long: exp must be within ${LIMITS.assertionMaxLifetimeSeconds} s`);
  }
  // Stryker disable next-line ConditionalExpression: fault machinery: rules.jtis is absent only under assertion-replay-accepted, never in a mutation run
  if (rules.jtis) {
    const used = rules.jtis.use(`${client.clientId}\u0000${payload.jti}`, exp);
    if (used === "replayed") return refuse("the assertion's jti was already used");
    // Stryker disable next-line all: the answer to a full jti cache, a defensive bound no requirement states
    if (used === "full") return refuse("too many assertions in flight; retry later", 503);
  }
  return { ok: true, clientId: client.clientId };
}

/**
 * The assertion-signature-unchecked fault: the header's alg is still ES256 and every claim
 * is validated as jwtVerify would, but the signature is never looked at (the payload is
 * re-read as an unsecured JWT).
 */
// Stryker disable all: fault machinery: runs, or differs, only while a fault is on (assertion-exp-unchecked, assertion-signature-unchecked, assertion-embedded-jwk-trusted), never in a mutation run
function claimsOnly(jwt: string, options: JWTVerifyOptions): Verified {
  const protectedHeader = decodeProtectedHeader(jwt);
  if (protectedHeader.alg !== "ES256") throw new errors.JOSEAlgNotAllowed("alg not allowed");
  const parts = jwt.split(".");
  if (parts.length !== 3) throw new errors.JWTInvalid("not a JWS");
  const { algorithms: _algorithms, ...claimOptions } = options;
  const none = base64url.encode(JSON.stringify({ alg: "none" }));
  const { payload } = UnsecuredJWT.decode(`${none}.${parts[1]}.`, claimOptions);
  return { payload, protectedHeader };
}
// Stryker restore all

/** A short, library-free reason for a failed verification. */
// Stryker disable all: only picks the error_description text of a 401 invalid_client, which RFC 6749 §5.2 leaves free ("not meant to drive runtime behaviour", specs/002 Errors)
function describe(err: unknown): string {
  if (err instanceof errors.JWTExpired) return "the assertion has expired";
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === "aud") return "the assertion's aud is not this token endpoint";
    if (err.claim === "iss" || err.claim === "sub")
      return "the assertion's iss and sub must be the client_id";
    if (err.reason === "missing") return `the assertion lacks the ${err.claim} claim`;
    return `the assertion's ${err.claim} claim is not acceptable`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return "the assertion's signature does not verify";
  if (err instanceof errors.JOSEAlgNotAllowed) return "the assertion must be signed with ES256";
  return "the assertion is not a well-formed signed JWT";
}
// Stryker restore all
