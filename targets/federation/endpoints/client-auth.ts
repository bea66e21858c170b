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
    if (params.one("client_assertion_type") !== ASSERTION_TYPE || assertion === undefined) {
      throw refuse("client authentication (private_key_jwt) is required");
    }
    let iss: unknown;
    let kid: unknown;
    try {
      iss = decodeJwt(assertion).iss;
      kid = decodeProtectedHeader(assertion).kid;
    } catch {
      throw refuse("the client assertion is not a JWT");
    }
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
    if (kid !== key.kid) throw refuse("the client assertion's kid names no current key of the client");
    const clientId = params.one("client_id");
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
    if (exp - (payload.iat as number) > LIMITS.assertionMaxLifetimeSeconds) {
      throw refuse("the client assertion lives too long");
    }
    if (this.ctx.faults.has("auth-jti-replay")) return;
    this.remember(`${client.id}|${String(payload.jti)}`, exp);
  }

  private remember(jti: string, exp: number): void {
    if (this.seen.has(jti)) throw refuse("the client assertion was used before");
    if (this.seen.size >= LIMITS.maxRememberedJtis) {
      const now = this.ctx.now();
      for (const [k, e] of this.seen) if (e + LIMITS.assertionSkewSeconds < now) this.seen.delete(k);
      if (this.seen.size >= LIMITS.maxRememberedJtis) {
        throw new FedError(503, "temporarily_unavailable", "too many client assertions in flight");
      }
    }
    this.seen.set(jti, exp);
  }
}
