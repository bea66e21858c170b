import type { FedContext } from "../context.js";
import { errorResponse, FedError, invalidRequest, json, jwtResponse } from "../http/reply.js";
import { signStatement, statementClaims } from "../statements/subordinate-statement.js";
import type { EndpointRequest } from "./request.js";

/** The Immediate Subordinate `sub` of `issuer`, or undefined. */
export function subordinate(ctx: FedContext, issuerId: string, sub: string) {
  const e = ctx.registry.get(sub);
  return e && e.superiors.includes(issuerId) ? e : undefined;
}

/**
 * The fetch endpoint (public-spec-facts §2 Fetch): `sub` REQUIRED; 200
 * application/entity-statement+jwt with the Subordinate Statement; an unknown sub is 404
 * not_found, a missing one 400 invalid_request.
 */
export async function fetchEndpoint(ctx: FedContext, r: EndpointRequest): Promise<Response> {
  const { faults } = ctx;
  try {
    // A fault: a missing sub read as the empty identifier.
    const sub = faults.has("fetch-no-sub-not-found") ? (r.params.one("sub") ?? "") : r.params.one("sub");
    if (sub === undefined) throw invalidRequest("sub is required");
    const e = subordinate(ctx, r.entity.id, sub);
    if (!e) {
      if (faults.has("fetch-unknown-sub-500")) {
        return json({ error: "server_error", error_description: "Cannot read properties of undefined" }, 500);
      }
      throw new FedError(404, "not_found", "no Immediate Subordinate with that identifier");
    }
    const token = await signStatement(ctx, r.entity, e, statementClaims(ctx, r.entity, e));
    return jwtResponse(
      token,
      faults.has("fetch-content-type-jwt") ? "application/jwt" : "application/entity-statement+jwt",
    );
  } catch (err) {
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent: app.ts answers a FedError rethrown from here with the same errorResponse, and nothing here throws another error
    if (!(err instanceof FedError)) throw err;
    // Stryker disable next-line ObjectLiteral: fault machinery: both options differ from the defaults only under fetch-error-no-description or fetch-not-found-400
    return errorResponse(err, {
      bare: faults.has("fetch-error-no-description"),
      ...(err.error === "not_found" && faults.has("fetch-not-found-400") ? { status: 400 } : {}),
    });
  }
}
