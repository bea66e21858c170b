import type { FedContext } from "../context.js";
import { errorResponse, FedError, invalidRequest, jwtResponse, textError } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { historyOf, type Entity, type EventRecord } from "../model/entity.js";
import { keyOf, sign } from "../statements/sign.js";
import { subordinate } from "./fetch.js";
import type { EndpointRequest } from "./request.js";

/** Where the federation documents its event types for End-Users (served by the target). */
// Stryker disable next-line StringLiteral: the document's path is the operator's choice (specs/001 Event object: information_uri, any URL); the origin alone is still an absolute https URL
export const EVENTS_DOC_PATH = "/docs/federation-events";

/** The events of a history as the statement carries them (specs/001 Event object). */
function serialize(ctx: FedContext, history: readonly EventRecord[]): Record<string, unknown>[] {
  const { faults } = ctx;
  const out: Record<string, unknown>[] = [];
  for (const h of history) {
    const event =
      h.event === "jwks_update" && faults.has("evt-jwks-updates-spelling") ? "jwks_updates" : h.event;
    const doc = `${faults.has("evt-information-uri-relative") ? "" : ctx.origin}${EVENTS_DOC_PATH}#${h.event}`;
    out.push({
      iat: h.iat,
      event,
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral: event_description is an OPTIONAL free-text member (specs/001 Event object); an undefined one is left out of the JSON
      ...(h.description !== undefined ? { event_description: h.description } : {}),
      // Stryker disable next-line EqualityOperator,StringLiteral: information_uri is OPTIONAL on every event (specs/001 Event object); which events link the document is the operator's choice
      ...(h.event !== "registration" ? { information_uri: doc } : {}),
    });
    if (h.event === "registration" && faults.has("evt-registration-with-jwks-update")) {
      out.push({ iat: h.iat, event: "jwks_update", event_description: "initial keys" });
    }
  }
  return out;
}

/**
 * The subordinate events endpoint (specs/001 Endpoints: Subordinate events): GET with `sub`
 * (or a form POST with it in the body); 200 application/entity-events-statement+jwt, a
 * statement typed entity-events-statement+jwt and signed with the responder's Federation
 * Entity Key, holding the subordinate's registration and update history; an unknown sub is a
 * JSON 404 not_found (public-spec-facts §2 Errors).
 */
export async function eventsEndpoint(ctx: FedContext, r: EndpointRequest): Promise<Response> {
  const { faults } = ctx;
  const p =
    faults.has("auth-events-sub-from-query") && r.entity.protectedEndpoints && r.method === "POST"
      ? r.query.over(r.params)
      : r.params;
  try {
    // A fault: a missing sub read as the empty identifier.
    const sub = faults.has("evt-no-sub-not-found") ? (p.one("sub") ?? "") : p.one("sub");
    if (sub === undefined) throw invalidRequest("sub is required");
    const e: Entity | undefined = subordinate(ctx, r.entity.id, sub);
    if (!e && !faults.has("evt-unknown-sub-empty")) {
      throw new FedError(404, "not_found", "no Immediate Subordinate with that identifier");
    }
    // Stryker disable next-line ArrayDeclaration: fault machinery: e is undefined here only under evt-unknown-sub-empty
    const history = e ? historyOf(e) : [];
    const now = ctx.now();
    const claims: Record<string, unknown> = {
      iss: r.entity.id,
      ...(faults.has("evt-no-sub") ? {} : { sub }),
      iat: now,
      exp: faults.has("evt-exp-from-history")
        ? Math.max(0, ...history.map((h) => h.iat)) + 86_400
        : now + LIMITS.eventsLifetime,
      [faults.has("evt-events-claim-name") ? "events" : "federation_registration_events"]: serialize(
        ctx,
        history,
      ),
    };
    const key = faults.has("evt-unpublished-key")
      ? ctx.keys.key(`${r.entity.id}|events`)
      : keyOf(ctx, r.entity);
    const token = await sign(claims, key, faults.has("evt-typ-jwt") ? "JWT" : "entity-events-statement+jwt");
    return jwtResponse(
      token,
      faults.has("evt-content-type-jwt") ? "application/jwt" : "application/entity-events-statement+jwt",
    );
  } catch (err) {
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent: app.ts answers a FedError rethrown from here with the same errorResponse, and nothing here throws another error
    if (!(err instanceof FedError)) throw err;
    if (faults.has("evt-errors-plain-text")) return textError(err.status, err.description);
    return errorResponse(err);
  }
}
