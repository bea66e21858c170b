import { createHmac, KeyObject, timingSafeEqual } from "node:crypto";
import { compactVerify, createRemoteJWKSet, importJWK, importX509, type JWK } from "jose";
import type { FaultSet } from "../faults.js";
import { CommandError, invalidRequest } from "../http/reply.js";
import { isSupported, isTenantCommand } from "../service/commands.js";
import { checkStandardClaims, type StandardClaims } from "./claims.js";
import type { JtiCache } from "./jti-cache.js";
import { decodeCompactJws } from "./jws.js";
import type { TrustedOp } from "./op-keys.js";

/** The Command Token media type (specs/002 area A Command Token: typ MUST be exactly this). */
export const COMMAND_TYP = "command+jwt";

export interface VerifyContext {
  readonly op: TrustedOp;
  /** The Command Endpoint URL, which `aud` must equal. */
  readonly commandEndpoint: string;
  readonly clientId: string;
  readonly jtis: JtiCache;
  readonly faults: FaultSet;
  readonly nowSeconds?: () => number;
}

/** A Command Token that passed steps 1 to 6: its standard claims and whole payload. */
export interface VerifiedToken {
  readonly claims: StandardClaims;
  readonly payload: Record<string, unknown>;
}

/** Step 2: the header (typ exactly command+jwt, a real signature algorithm, no extensions). */
function checkHeader(header: Record<string, unknown>, faults: FaultSet): { unsigned: boolean } {
  if (!faults.has("typ-unchecked") && header.typ !== COMMAND_TYP) {
    throw invalidRequest(`the command token's typ must be exactly ${COMMAND_TYP}`);
  }
  if (typeof header.alg !== "string") throw invalidRequest("the command token's header lacks alg");
  // Stryker disable next-line ConditionalExpression: equivalent: an empty alg is the algorithm of no OP key, so checkSignature refuses it with the same 400 invalid_request
  if (header.alg.length === 0) throw invalidRequest("the command token's header lacks alg");
  // Stryker disable next-line all: equivalent: "none" is the algorithm of no OP key, so checkSignature refuses an unsigned token with the same 400 invalid_request; the flag only matters under the alg-none-accepted fault
  const unsigned = header.alg.toLowerCase() === "none";
  if (unsigned && !faults.has("alg-none-accepted")) {
    throw invalidRequest("the command token must be signed (alg none is refused)");
  }
  // Stryker disable next-line ConditionalExpression: equivalent: jose's compactVerify refuses every crit it does not understand (RFC 7515 §4.1.11) with the same 400 invalid_request
  if (header.crit !== undefined) throw invalidRequest("no critical header extension is understood");
  // Stryker disable next-line ObjectLiteral: equivalent: unsigned is true only under the alg-none-accepted fault
  return { unsigned };
}

/** Step 3: the issuer, read before any verification, must be the trusted OP. */
function checkIssuer(payload: Record<string, unknown>, ctx: VerifyContext): void {
  // Stryker disable next-line all: a token without a string iss is both an invalid Command Token (400 invalid_request) and from an issuer the RP does not recognize (401 unrecognized_provider); the document picks neither, so commands.token-issuer accepts both
  if (typeof payload.iss !== "string" || payload.iss.length === 0) {
    throw invalidRequest("the command token lacks the iss claim");
  }
  if (payload.iss === ctx.op.issuer) return;
  if (ctx.faults.has("unknown-issuer-400")) throw invalidRequest("unknown issuer");
  throw new CommandError(401, "unrecognized_provider", "the RP does not recognize this issuer");
}

/**
 * The shortcuts of the key-trust faults: a verifier that takes the key the token brings
 * (`jwk`, `x5c`, `jku`) or lets the token choose HMAC with the public key as secret.
 * True when such a shortcut accepted the token.
 */
// Stryker disable all: fault machinery: runs, or differs, only while a fault is on (embedded-jwk-trusted, account-commands-trust-embedded-jwk, x5c-trusted, jku-trusted, hmac-public-key), never in a mutation run
async function shortcut(
  token: string,
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  ctx: VerifyContext,
): Promise<boolean> {
  const alg = String(header.alg);
  const verifies = async (key: Parameters<typeof compactVerify>[1]): Promise<boolean> =>
    compactVerify(token, key).then(
      () => true,
      () => false,
    );
  // account-commands-trust-embedded-jwk: the path of account commands (written apart from the
  // metadata path) takes the key the token brings; tenant commands still need the OP's key.
  const trustsJwk =
    ctx.faults.has("embedded-jwk-trusted") ||
    (ctx.faults.has("account-commands-trust-embedded-jwk") && namesAccountCommand(payload));
  if (trustsJwk && header.jwk !== null && typeof header.jwk === "object")
    return verifies(await importJWK(header.jwk as JWK, alg).catch(() => new Uint8Array()));
  if (ctx.faults.has("x5c-trusted") && Array.isArray(header.x5c) && typeof header.x5c[0] === "string") {
    const pem = `-----BEGIN CERTIFICATE-----\n${header.x5c[0]}\n-----END CERTIFICATE-----`;
    return verifies(await importX509(pem, alg).catch(() => new Uint8Array()));
  }
  if (ctx.faults.has("jku-trusted") && typeof header.jku === "string")
    return compactVerify(token, createRemoteJWKSet(new URL(header.jku), { timeoutDuration: 2000 })).then(
      () => true,
      () => false,
    );
  if (ctx.faults.has("hmac-public-key") && alg.startsWith("HS") && typeof header.kid === "string") {
    const trusted = ctx.op.keys.get(header.kid);
    if (trusted === undefined || trusted.key instanceof Uint8Array) return false;
    const pem = KeyObject.from(trusted.key).export({ type: "spki", format: "pem" });
    const [h, p, s = ""] = token.split(".");
    const mac = createHmac(`sha${alg.slice(2)}`, pem)
      .update(`${h}.${p}`)
      .digest();
    const given = Buffer.from(s, "base64url");
    return given.length === mac.length && timingSafeEqual(given, mac);
  }
  return false;
}

/** Whether the (not yet verified) token names an account command this RP supports. */
function namesAccountCommand(payload: Record<string, unknown>): boolean {
  const command = payload.command;
  return typeof command === "string" && isSupported(command) && !isTenantCommand(command);
}
// Stryker restore all

/** Step 4: a trusted kid, the key's algorithm, and a signature that verifies. */
async function checkSignature(
  token: string,
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  ctx: VerifyContext,
) {
  // Stryker disable next-line ConditionalExpression: fault machinery: shortcut accepts a token only while a key-trust fault is on
  if (await shortcut(token, header, payload, ctx)) return;
  // Stryker disable next-line ConditionalExpression: equivalent: the OP's keys are a Map keyed by string, so a kid of another type finds no key either way
  const trusted = typeof header.kid === "string" ? ctx.op.keys.get(header.kid) : undefined;
  if (trusted === undefined) {
    if (ctx.faults.has("unknown-kid-accepted")) return;
    // Stryker disable next-line all: fault machinery: runs only under the unknown-kid-same-alg fault
    if (ctx.faults.has("unknown-kid-same-alg") && [...ctx.op.keys.values()].some((k) => k.alg === header.alg))
      return;
    throw invalidRequest("the command token's kid names no key of this OP");
  }
  if (ctx.faults.has("signature-unchecked")) return;
  // Stryker disable next-line ConditionalExpression: equivalent: compactVerify below pins the same algorithm and refuses with the same 400
  if (header.alg !== trusted.alg)
    throw invalidRequest(`this OP's key ${trusted.kid} signs with ${trusted.alg}`);
  try {
    // Stryker disable next-line ObjectLiteral: equivalent: the alg comparison above already pinned the key's algorithm
    await compactVerify(token, trusted.key, { algorithms: [trusted.alg] });
  } catch {
    throw invalidRequest("the command token's signature does not verify");
  }
}

/**
 * Validates a Command Token (specs/002 area A Command Token, Authentication, Errors) in a
 * fixed order: (1) a compact JWS, (2) typ command+jwt and a real algorithm, (3) a known
 * issuer (else 401 unrecognized_provider), (4) a trusted kid and a valid signature, (5) the
 * required claims, aud, client_id, exp and no nonce, (6) a jti not seen before. Every other
 * failure is 400 invalid_request.
 */
export async function verifyCommandToken(token: string, ctx: VerifyContext): Promise<VerifiedToken> {
  const { header, payload } = decodeCompactJws(token);
  const { unsigned } = checkHeader(header, ctx.faults);
  checkIssuer(payload, ctx);
  // Stryker disable next-line ConditionalExpression: equivalent: unsigned is true only under the alg-none-accepted fault
  if (!unsigned) await checkSignature(token, header, payload, ctx);
  const now = (ctx.nowSeconds ?? (() => Math.floor(Date.now() / 1000)))();
  const claims = checkStandardClaims(payload, {
    audience: ctx.faults.has("aud-ignored") ? undefined : ctx.commandEndpoint,
    clientId: ctx.faults.has("client-id-ignored") ? undefined : ctx.clientId,
    rejectExpired: !ctx.faults.has("expired-accepted"),
    rejectNonce: !ctx.faults.has("nonce-accepted"),
    requireJti: !ctx.faults.has("jti-optional"),
    now,
  });
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: jti is always present unless the jti-optional fault is on
  if (!ctx.faults.has("replay-accepted") && claims.jti !== undefined) {
    const used = ctx.jtis.use(claims.iss, claims.jti, claims.exp);
    if (used === "replayed") throw invalidRequest("the command token's jti was already used");
    // Stryker disable all: the jti memory bound of this RP (jti-cache.ts); the document states none
    if (used === "full") {
      throw new CommandError(503, "temporarily_unavailable", "too many command tokens in flight");
    }
  }
  // Stryker restore all
  return { claims, payload };
}
