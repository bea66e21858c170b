import type { Context } from "hono";
import type { VciContext } from "../context.js";
import { readJsonObject } from "../http/body.js";
import { badRequest, VciError } from "../http/errors.js";
import { credentialReply, credentialError } from "./responder.js";
import { LIMITS } from "../limits.js";
import { issueNotificationId, type AccessTokens } from "../oauth/access-tokens.js";
import { issueCredentials } from "../credential/issue.js";
import { bearerGrant, invalidToken } from "./bearer.js";
import { readCredentialRequest } from "./credential-request.js";
import type { DeferredStore } from "./deferred-store.js";
import type { Nonces } from "./nonces.js";
import { unverifiedProofKey, verifyProof, type VerifiedProof } from "./proof.js";

export interface CredentialDeps {
  readonly ctx: VciContext;
  readonly tokens: AccessTokens;
  readonly nonces: Nonces;
  readonly deferred: DeferredStore;
}

/**
 * Judges the nonces of verified proofs: a nonce never issued, or expired, is invalid_nonce;
 * valid nonces stay usable (States 3). `nonce-unchecked` skips this; under
 * `nonce-reuse-invalid-proof` a nonce seen in an earlier request is invalid_proof.
 */
function checkNonces(deps: CredentialDeps, proofs: readonly VerifiedProof[]): void {
  const { faults } = deps.ctx;
  if (faults.has("nonce-unchecked")) return;
  for (const p of proofs) {
    // Stryker disable next-line ConditionalExpression: equivalent in a clean run: a verified proof has no nonce only under the nonce-optional fault
    if (p.nonce === undefined) continue;
    const state = deps.nonces.state(p.nonce);
    if (state === "unknown")
      throw badRequest("invalid_nonce", "the proof nonce was not issued or has expired");
    if (state === "reused" && faults.has("nonce-reuse-invalid-proof")) {
      throw badRequest("invalid_proof", "the proof nonce was already used");
    }
  }
  // Stryker disable next-line all: the marks are read only under the nonce-reuse-invalid-proof fault
  for (const p of proofs) if (p.nonce !== undefined) deps.nonces.markUsed(p.nonce);
}

/**
 * POST /issuer/credential (specs/000 Endpoints: Credential Endpoint; public-spec-facts §1
 * §8): bearer token, request checks, one credential per proof bound to its key, 200
 * `{credentials, notification_id}` or, for a deferred grant, 202 `{transaction_id, interval}`.
 */
export function credentialEndpoint(deps: CredentialDeps) {
  const { ctx } = deps;
  return async (c: Context): Promise<Response> => {
    try {
      // The `bearer-scheme-case-sensitive` fault takes the scheme only as "Bearer".
      // Stryker disable all: runs only under the fault "bearer-scheme-case-sensitive"
      if (
        ctx.faults.has("bearer-scheme-case-sensitive") &&
        !/^Bearer /.test(c.req.header("authorization") ?? "Bearer ")
      )
        throw invalidToken("the access token is unknown or expired");
      // Stryker restore all
      // Stryker disable next-line ObjectLiteral: equivalent in a clean run: both options are false unless the no-token-400 or bad-token-accepted fault is on
      const grant = bearerGrant(c.req.header("authorization"), deps.tokens, {
        missingIs400: ctx.faults.has("no-token-400"),
        anyToken: ctx.faults.has("bad-token-accepted"),
      });
      if (grant.usedForCredential && ctx.faults.has("token-single-use")) {
        throw new VciError(401, "invalid_token", "the access token was already used", {
          "www-authenticate": 'Bearer error="invalid_token"',
        });
      }
      const body = await readJsonObject(
        c.req.raw,
        LIMITS.maxCredentialBodyBytes,
        "invalid_credential_request",
      );
      const request = await readCredentialRequest(ctx, body, grant);
      if (request.configuration === "identity_jwt_vc" && ctx.faults.has("jwt-vc-refused")) {
        throw badRequest("credential_request_denied", "identity_jwt_vc credentials are not issued");
      }
      const proofs: VerifiedProof[] = [];
      for (const [i, proof] of request.proofs.entries())
        proofs.push(
          i > 0 && ctx.faults.has("batch-first-proof-only")
            ? unverifiedProofKey(proof)
            : await verifyProof(ctx, proof, request.proofAlgs),
        );
      checkNonces(deps, proofs);
      // Stryker disable next-line BooleanLiteral: the mark is read only under the token-single-use fault
      grant.usedForCredential = true;
      // No proofs only under `proof-optional`: one credential bound to no key.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrayDeclaration: equivalent in a clean run: a request has no proofs only under the proof-optional fault
      const holders = proofs.length > 0 ? proofs.map((p) => p.jwk) : [undefined];
      if (grant.deferred) {
        const transactionId = deps.deferred.add({
          grant,
          configuration: request.configuration,
          holders,
          polls: 0,
          delivered: undefined,
        });
        const interval = ctx.faults.has("deferred-no-interval")
          ? {}
          : { interval: LIMITS.deferredIntervalSeconds };
        return await credentialReply(
          ctx,
          { transaction_id: transactionId, ...interval },
          202,
          request.encryption,
        );
      }
      const notificationId = issueNotificationId(ctx, grant);
      const credentials = await issueCredentials(ctx, request.configuration, holders);
      return await credentialReply(
        ctx,
        { credentials, notification_id: notificationId },
        200,
        request.encryption,
      );
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: equivalent: every failure this handler meets is a VciError (any other would be a target bug, a 500 either way)
      if (err instanceof VciError) return credentialError(ctx, err);
      throw err;
    }
  };
}
