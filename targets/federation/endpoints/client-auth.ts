import {
  compactVerify,
  decodeJwt,
  decodeProtectedHeader,
  EmbeddedJWK,
  importJWK,
  jwtVerify,
  type JWTPayload,
} from "jose";
import type { FedContext } from "../context.js";
import type { Params } from "../http/params.js";
import { FedError } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import type { Entity } from "../model/entity.js";

export const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** The parameters client authentication adds to a request, removed before the endpoint reads it. */
// Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent: no endpoint reads these names (each reads only its own parameters, and unknown ones are ignored, public-spec-facts §2 Endpoints), so leaving them in changes no answer
export const AUTH_PARAMETERS = ["client_assertion", "client_assertion_type", "client_id"];

const refuse = (why: string): FedError => new FedError(401, "invalid_client", why);

/**
 * private_key_jwt client authentication (public-spec-facts §2 Endpoints; specs/001
 * Authentication 1): a form POST with a client assertion whose iss and sub are the Entity
 * Identifier of an entity of this federation, aud the responder's Entity Identifier, signed
 * ES256 with that entity's current key (the kid must name it; keys a token carries are never
 * used), with exp, iat and a jti not seen before. Anything else is 401 invalid_client.
 */
export class ClientAuth {
  /** `<iss>|<jti>` → exp of the assertions already accepted. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly ctx: FedContext) {}

  /** `endpointUrl`: the URL the assertion was sent to (without its query). */
  async authenticate(responder: Entity, params: Params, endpointUrl: string): Promise<void> {
    const assertion = params.one("client_assertion");
    if (
      params.one("client_assertion_type") !== ASSERTION_TYPE ||
      // Stryker disable next-line ConditionalExpression: equivalent when false: decodeJwt then throws on the missing assertion, refused below with the same 401 invalid_client
      assertion === undefined
    ) {
      throw refuse("client authentication (private_key_jwt) is required");
    }
    let iss: unknown;
    let kid: unknown;
    try {
      iss = decodeJwt(assertion).iss;
      kid = decodeProtectedHeader(assertion).kid;
    } catch /* Stryker disable next-line BlockStatement: equivalent: without the refusal here iss or kid stays unset, and the checks of the client and of its kid below refuse with the same 401 invalid_client */ {
      throw refuse("the client assertion is not a JWT");
    }
    // Stryker disable next-line ConditionalExpression: equivalent when true: the registry is keyed by strings, so looking up a non-string iss finds no client either (the `false` variant, refusing every assertion, is silenced with it)
    const client = typeof iss === "string" ? this.ctx.registry.get(iss) : undefined;
    if (client && this.ctx.faults.has("auth-embedded-jwk") && decodeProtectedHeader(assertion).jwk) {
      // The mistake: jose's EmbeddedJWK taken as "the key the client sent", trusted for its iss.
      try {
        await jwtVerify(assertion, EmbeddedJWK, { issuer: client.id, audience: responder.id });
        return;
      } catch {
        throw refuse("the client assertion does not verify");
      }
    }
    if (!client || !this.ctx.registry.isBelow(client, this.ctx.ids.anchor)) {
      throw refuse("the client is not an entity of this federation");
    }
    const key = this.ctx.keys.key(client.id, client.keyVersion);
    // Stryker disable next-line ConditionalExpression: kid is a hint (RFC 7515 §4.1.4): without this refusal the assertion is still verified with the client's current key below, and accepting one whose kid is another label is no rule's failure (the `true` variant, refusing every assertion, is silenced with it)
    if (kid !== key.kid) throw refuse("the client assertion's kid names no current key of the client");
    // Stryker disable next-line StringLiteral: client_id is OPTIONAL with an assertion (RFC 7521 §4.2: the client is identified by the assertion's subject, and a client_id sent MUST identify it, a duty of the client): refusing a mismatch is the server's choice, and the suite never sends client_id
    const clientId = params.one("client_id");
    // Stryker disable next-line ConditionalExpression,EqualityOperator: client_id is OPTIONAL with an assertion (RFC 7521 §4.2, see above): refusing a mismatch is the server's choice, and the suite never sends client_id (the variants refusing every assertion are silenced with them)
    if (clientId !== undefined && clientId !== client.id)
      throw refuse("client_id is not the assertion's iss");
    let payload: JWTPayload;
    try {
      if (this.ctx.faults.has("auth-signature-only")) {
        // The mistake: the signature is verified, then only iss and sub are compared by hand;
        // aud, exp and iat are never looked at.
        const { payload: bytes } = await compactVerify(assertion, await importJWK(key.publicJwk, "ES256"), {
          algorithms: ["ES256"],
        });
        payload = JSON.parse(new TextDecoder().decode(bytes)) as JWTPayload;
        if (payload.iss !== client.id || payload.sub !== client.id || typeof payload.jti !== "string")
          throw new Error("iss, sub or jti");
        payload = { ...payload, exp: this.ctx.now() + 60, iat: this.ctx.now() };
      } else {
        ({ payload } = await jwtVerify(assertion, await importJWK(key.publicJwk, "ES256"), {
          algorithms: ["ES256"],
          issuer: client.id,
          subject: client.id,
          // The mistake of auth-aud-unchecked: the audience option left out. That of
          // auth-aud-endpoint-url: the audience a token endpoint asks for (RFC 7523 §3), the URL
          // the assertion is sent to, instead of the responder's Entity Identifier.
          ...(this.ctx.faults.has("auth-aud-unchecked")
            ? {}
            : { audience: this.ctx.faults.has("auth-aud-endpoint-url") ? endpointUrl : responder.id }),
          clockTolerance: LIMITS.assertionSkewSeconds,
          requiredClaims: ["exp", "iat", "jti"],
        }));
      }
    } catch {
      throw refuse("the client assertion does not verify (signature, iss, sub, aud, exp, iat or jti)");
    }
    const exp = payload.exp as number;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a defensive bound on an assertion's lifetime (600 s) that no requirement states (the variants refusing every assertion, `true` and `<=`, are silenced with them)
    if (exp - (payload.iat as number) > LIMITS.assertionMaxLifetimeSeconds) {
      throw refuse("the client assertion lives too long");
    }
    if (this.ctx.faults.has("auth-jti-replay")) return;
    this.remember(`${client.id}|${String(payload.jti)}`, exp);
  }

  private remember(jti: string, exp: number): void {
    if (this.seen.has(jti)) throw refuse("the client assertion was used before");
    // Stryker disable all: a defensive bound on remembered jtis (100,000) that no requirement states
    if (this.seen.size >= LIMITS.maxRememberedJtis) {
      const now = this.ctx.now();
      for (const [k, e] of this.seen) if (e + LIMITS.assertionSkewSeconds < now) this.seen.delete(k);
      if (this.seen.size >= LIMITS.maxRememberedJtis) {
        throw new FedError(503, "temporarily_unavailable", "too many client assertions in flight");
      }
    }
    // Stryker restore all
    this.seen.set(jti, exp);
  }
}
