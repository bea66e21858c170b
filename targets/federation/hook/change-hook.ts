import { randomBytes, randomInt } from "node:crypto";
import { readBoundedBody } from "../../../src/http/bounded-body.js";
import type { FedContext } from "../context.js";
import { badRequest, errorResponse, FedError, json } from "../http/reply.js";
import { sameSecret } from "../http/secret.js";
import { LIMITS } from "../limits.js";
import { historyOf, UPDATE_EVENTS, type Entity, type EventType } from "../model/entity.js";
import { leafTemplate, makeEntity } from "../model/fixture.js";
import { RESERVED_SEGMENTS } from "../statements/endpoints.js";

/** The change hook's path; a suffix names the superior (`/test/change/ta/int1`), none the anchor. */
export const HOOK_PATH = "/test/change";

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

// What a leaf added through the hook publishes: a relying party named after its last segment.
const ADDED = leafTemplate((e) => {
  const name = e.id.slice(e.id.lastIndexOf("/") + 1);
  return {
    openid_relying_party: {
      redirect_uris: [`https://${name}.example/callback`],
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "private_key_jwt",
      display_name: `Added ${name}`,
    },
  };
});

/** The update events a hook update cycles through, by kind of subordinate. */
const LEAF_CYCLE: readonly EventType[] = ["metadata_update", "jwks_update"];
const INTERMEDIATE_CYCLE: readonly EventType[] = ["metadata_policy_update", "metadata_update", "jwks_update"];

/** A random leaf among the Immediate Subordinates of `superior` (not the demo's client). */
function someLeaf(ctx: FedContext, superior: string): Entity | undefined {
  const ids = ctx.registry.subordinates(superior);
  const start = ids.length > 0 ? randomInt(ids.length) : 0;
  for (let i = 0; i < ids.length; i++) {
    const e = ctx.registry.get(ids[(start + i) % ids.length] as string);
    if (e && e.kind === "leaf" && e.id !== ctx.ids.client) return e;
  }
  return undefined;
}

function target(ctx: FedContext, superior: string, id: unknown, leafOnly: boolean): Entity {
  if (id === undefined) {
    const e = someLeaf(ctx, superior);
    if (!e) throw new FedError(409, "invalid_request", "there is no leaf to change");
    return e;
  }
  const e = typeof id === "string" ? ctx.registry.get(id) : undefined;
  if (!e || !e.superiors.includes(superior))
    throw new FedError(404, "not_found", "no such Immediate Subordinate");
  if ((leafOnly && e.kind !== "leaf") || e.id === ctx.ids.client) {
    throw badRequest("invalid_request", "only leaves other than the demo's client can be removed");
  }
  return e;
}

function add(ctx: FedContext, superior: string, id: unknown): Record<string, unknown> {
  if (ctx.registry.size >= LIMITS.maxEntities)
    throw new FedError(507, "invalid_request", "the federation is full");
  const newId = id ?? `${superior}/x-${randomBytes(6).toString("hex")}`;
  const segment =
    typeof newId === "string" && newId.startsWith(`${superior}/`) ? newId.slice(superior.length + 1) : "";
  if (!SEGMENT.test(segment) || segment.length > LIMITS.maxSegmentChars || RESERVED_SEGMENTS.has(segment)) {
    throw badRequest("invalid_request", `id must be ${superior}/<segment> (letters, digits, . _ ~ -)`);
  }
  if (ctx.registry.get(newId as string)) throw new FedError(409, "invalid_request", "that entity exists");
  const now = ctx.now();
  const e = makeEntity({
    id: newId as string,
    kind: "leaf",
    superiors: [superior],
    template: ADDED,
    history: [{ iat: now, event: "registration" }],
    registered: now,
  });
  ctx.registry.add(e, now);
  return { op: "add", id: e.id, registered: e.registered, updated: e.updated };
}

function update(ctx: FedContext, superior: string, id: unknown, event: unknown): Record<string, unknown> {
  const e = target(ctx, superior, id, false);
  const history = [...historyOf(e)];
  const cycle = e.kind === "intermediate" ? INTERMEDIATE_CYCLE : LEAF_CYCLE;
  const chosen = event ?? cycle[history.filter((h) => UPDATE_EVENTS.has(h.event)).length % cycle.length];
  if (!cycle.includes(chosen as EventType))
    throw badRequest("invalid_request", `event must be one of ${cycle.join(", ")}`);
  // Strictly after the last event: an update never shares its time with the registration.
  const iat = Math.max(ctx.now(), ...history.map((h) => h.iat + 1));
  if (chosen === "metadata_update") e.revision += 1;
  if (chosen === "jwks_update") e.keyVersion += 1;
  if (chosen === "metadata_policy_update") e.policyRevision += 1;
  e.history = [...history, { iat, event: chosen as EventType, description: "changed through the test hook" }];
  e.updated = iat;
  ctx.registry.touch(iat);
  return { op: "update", id: e.id, event: chosen, updated: e.updated };
}

/**
 * The change hook (a vendor test hook, like the other targets' hooks): POST with the hook's
 * bearer token and a JSON body `{"op": "add" | "update" | "remove", "id"?: …, "event"?: …}`
 * adds a leaf under the superior (a random identifier unless `id` names one), updates one
 * (bumps `updated` and records the event: metadata_update, jwks_update, or for an Intermediate
 * metadata_policy_update) or removes one; without `id`, update and remove pick a random leaf.
 * Answers the entity's identifier and times.
 */
export function changeHook(ctx: FedContext, token: string) {
  return async (req: Request, suffix: string): Promise<Response> => {
    try {
      const auth = /^Bearer ([\x21-\x7e]+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
      if (auth === undefined || !sameSecret(auth, token))
        throw new FedError(401, "invalid_token", "the hook needs its bearer token");
      const superior = suffix === "" ? ctx.ids.anchor : `${ctx.origin}${suffix}`;
      const kind = ctx.registry.get(superior)?.kind;
      if (kind !== "anchor" && kind !== "intermediate")
        throw new FedError(404, "not_found", "no such superior");
      const text = await readBoundedBody(req, 4096);
      if (text === "too-large") throw new FedError(413, "invalid_request", "the body exceeds 4096 bytes");
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw badRequest("invalid_request", "the body must be a JSON object");
      }
      if (typeof body !== "object" || body === null)
        throw badRequest("invalid_request", "the body must be a JSON object");
      if (body.op === "add") return json(add(ctx, superior, body.id), 201);
      if (body.op === "update") return json(update(ctx, superior, body.id, body.event));
      if (body.op === "remove") {
        const e = target(ctx, superior, body.id, true);
        ctx.registry.remove(e.id, ctx.now());
        return json({ op: "remove", id: e.id });
      }
      throw badRequest("invalid_request", "op must be add, update or remove");
    } catch (err) {
      if (err instanceof FedError) return errorResponse(err);
      throw err;
    }
  };
}
