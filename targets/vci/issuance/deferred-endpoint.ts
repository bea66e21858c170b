import type { Context } from "hono";
import type { VciContext } from "../context.js";
import { issueCredentials } from "../credential/issue.js";
import { readJsonObject } from "../http/body.js";
import { badRequest, VciError } from "../http/errors.js";
import { LIMITS } from "../limits.js";
import { issueNotificationId, type AccessTokens } from "../oauth/access-tokens.js";
import { bearerGrant } from "./bearer.js";
import { requiredEncryption } from "./credential-request.js";
import type { DeferredStore } from "./deferred-store.js";
import { credentialError, credentialReply } from "./responder.js";

export interface DeferredDeps {
  readonly ctx: VciContext;
  readonly tokens: AccessTokens;
  readonly deferred: DeferredStore;
}

/**
 * POST /issuer/deferred (public-spec-facts §1, §9): bearer token, `{transaction_id,
 * credential_response_encryption}`. Readiness counts polls, never wall time: the first
 * poll answers 202 with the same transaction_id and an interval, later ones 200 with the
 * credentials, after which the id is invalidated (400 invalid_transaction_id).
 */
export function deferredEndpoint(deps: DeferredDeps) {
  const { ctx } = deps;
  return async (c: Context): Promise<Response> => {
    try {
      // The `deferred-any-token` fault looks at no token: the transaction's own grant stands in.
      const grant = ctx.faults.has("deferred-any-token")
        ? undefined
        : // Stryker disable next-line ObjectLiteral: equivalent: both options are false, as they are when left out
          bearerGrant(c.req.header("authorization"), deps.tokens, {
            missingIs400: false,
            anyToken: false,
          });
      const body = await readJsonObject(
        c.req.raw,
        LIMITS.maxCredentialBodyBytes,
        "invalid_credential_request",
      );
      const encryption = await requiredEncryption(ctx, body.credential_response_encryption);
      const id = body.transaction_id;
      // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,BlockStatement: without this test a missing or empty id reaches the lookup and is answered 400 invalid_transaction_id, a code public §9 leaves open for it and VCI-DEFERRED-NO-ID accepts
      if (typeof id !== "string" || id === "") {
        // The `deferred-id-optional` fault answers a request without transaction_id as pending.
        // Stryker disable next-line all: runs only under the fault "deferred-id-optional"
        if (ctx.faults.has("deferred-id-optional"))
          return await credentialReply(ctx, { interval: LIMITS.deferredIntervalSeconds }, 202, encryption);
        throw badRequest("invalid_credential_request", "transaction_id is required");
      }
      const t = deps.deferred.find(id);
      // The `deferred-other-token` fault serves a transaction_id to any valid access token.
      if (t === undefined || (t.grant !== (grant ?? t.grant) && !ctx.faults.has("deferred-other-token"))) {
        throw badRequest("invalid_transaction_id", "transaction_id is unknown or already used");
      }
      t.polls += 1;
      // The `deferred-never-issued` fault keeps every transaction pending.
      // Stryker disable next-line EqualityOperator: on which poll a transaction is ready is this target's choice (public §9 sets no deadline; the check polls until it is)
      if (t.polls < LIMITS.deferredReadyOnPoll || ctx.faults.has("deferred-never-issued")) {
        // The `deferred-pending-new-id` fault answers a new id; both stay valid.
        const answered = ctx.faults.has("deferred-pending-new-id") ? deps.deferred.add(t) : id;
        return await credentialReply(
          ctx,
          { transaction_id: answered, interval: LIMITS.deferredIntervalSeconds },
          202,
          encryption,
        );
      }
      // Stryker disable next-line ConditionalExpression: equivalent in a clean run: a delivered transaction_id is deleted, so it is delivered again only under the deferred-id-reusable fault
      if (t.delivered === undefined) {
        t.delivered = {
          // deferred-unbound: the transaction kept no holder keys, so nothing is bound.
          credentials: await issueCredentials(
            ctx,
            t.configuration,
            ctx.faults.has("deferred-unbound") ? t.holders.map(() => undefined) : t.holders,
          ),
          notification_id: issueNotificationId(ctx, t.grant),
        };
      }
      // Stryker disable next-line ConditionalExpression: equivalent in a clean run: false only under the deferred-id-reusable fault
      if (!ctx.faults.has("deferred-id-reusable")) deps.deferred.delete(id);
      return await credentialReply(ctx, { ...t.delivered }, 200, encryption);
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: equivalent: every failure this handler meets is a VciError (any other would be a target bug, a 500 either way)
      if (err instanceof VciError) return credentialError(ctx, err);
      throw err;
    }
  };
}
