import type { Context } from "hono";
import type { VciContext } from "../context.js";
import { readJsonObject } from "../http/body.js";
import { badRequest, VciError } from "../http/errors.js";
import { errorResponse, jsonResponse, NO_STORE } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { ExpiringStore } from "../store.js";
import { bearerGrant } from "./bearer.js";

/** The notification events (public-spec-facts §1, §11), case-sensitive. */
const EVENTS = new Set(["credential_accepted", "credential_failure", "credential_deleted"]);

const invalid = (d: string): VciError => badRequest("invalid_notification_request", d);

/** How long an accepted notification is remembered (only under `notification-repeat-refused`). */
const ACCEPTED_MEMORY_SECONDS = 3600;

/** The notification_id of a request: a string, or under `notification-id-number` also a number. */
function notificationId(ctx: VciContext, id: unknown): string {
  if (typeof id === "number" && Number.isFinite(id) && ctx.faults.has("notification-id-number")) {
    return String(id);
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: an empty notification_id is also unknown, and public §11 lets it be answered invalid_notification_id as well
  if (typeof id !== "string" || id === "") throw invalid("notification_id is required");
  return id;
}

/**
 * POST /issuer/notification (specs/000 Endpoints: Notification Endpoint; public-spec-facts
 * §1, §11): bearer token, `{notification_id, event, event_description?}`; 204 on success,
 * identical repeats too; 400 invalid_notification_request or invalid_notification_id.
 * Faults: `notification-deleted-refused` refuses credential_deleted, `notification-repeat-refused`
 * an identical repeat of an accepted notification.
 */
export function notificationEndpoint(ctx: VciContext, tokens: AccessTokens) {
  const { faults } = ctx;
  const accepted = new ExpiringStore<true>();
  return async (c: Context): Promise<Response> => {
    try {
      // Stryker disable next-line ObjectLiteral: equivalent in a clean run: both options are false unless the notification-no-token-400 fault is on
      const grant = bearerGrant(c.req.header("authorization"), tokens, {
        missingIs400: faults.has("notification-no-token-400"),
        anyToken: false,
      });
      const body = await readJsonObject(c.req.raw, LIMITS.maxSmallBodyBytes, "invalid_notification_request");
      const { event, event_description: description } = body;
      const id = notificationId(ctx, body.notification_id);
      // Stryker disable next-line ConditionalExpression: equivalent: a missing or non-string event is in no set of events, refused the same below
      if (typeof event !== "string") throw invalid("event is required");
      if (!EVENTS.has(event) && !faults.has("notification-bad-event-accepted")) {
        throw invalid("event must be credential_accepted, credential_failure or credential_deleted");
      }
      if (event === "credential_deleted" && faults.has("notification-deleted-refused")) {
        throw invalid("credential_deleted is not accepted");
      }
      if (description !== undefined && typeof description !== "string") {
        throw invalid("event_description must be a string");
      }
      if (!grant.notificationIds.has(id) && !faults.has("notification-unknown-accepted")) {
        throw badRequest("invalid_notification_id", "notification_id is unknown for this access token");
      }
      if (faults.has("notification-repeat-refused")) {
        const key = JSON.stringify([id, event]);
        if (accepted.get(key) !== undefined) throw invalid("this notification was already received");
        accepted.set(key, true, ACCEPTED_MEMORY_SECONDS);
      }
      if (faults.has("notification-200")) return jsonResponse({}, 200, NO_STORE);
      return new Response(null, { status: 204, headers: NO_STORE });
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: equivalent: every failure this handler meets is a VciError (any other would be a target bug, a 500 either way)
      if (err instanceof VciError) return errorResponse(err);
      throw err;
    }
  };
}
