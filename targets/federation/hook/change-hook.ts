import { randomBytes, randomInt } from "node:crypto";
import { readBoundedBody } from "../../../src/http/bounded-body.js";
import type { FedContext } from "../context.js";
import { badRequest, FedError, json } from "../http/reply.js";
import { sameSecret } from "../http/secret.js";
import { LIMITS } from "../limits.js";
import { historyOf, UPDATE_EVENTS, type Entity, type EventType } from "../model/entity.js";
import { leafTemplate, makeEntity } from "../model/fixture.js";
import { RESERVED_SEGMENTS } from "../statements/endpoints.js";

/** The change hook's path; a suffix names the superior (`/test/change/ta/int1`), none the anchor. */
export const HOOK_PATH = "/test/change";

// Stryker disable next-line Regex: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

// What a leaf added through the hook publishes: a relying party named after its last segment.
// Stryker disable all: test plumbing: fixture data; the statements about an added leaf come from the code that makes every fixture leaf's, which the checks judge
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

// Stryker restore all
/** The update events a hook update cycles through, by kind of subordinate. */
const LEAF_CYCLE: readonly EventType[] = ["metadata_update", "jwks_update"];
// Stryker disable next-line ArrayDeclaration,StringLiteral: test plumbing: the hook updates an Intermediate only when the harness names one, which the suite never does
const INTERMEDIATE_CYCLE: readonly EventType[] = ["metadata_policy_update", "metadata_update", "jwks_update"];

/** A random leaf among the Immediate Subordinates of `superior` (not the demo's client). */
function someLeaf(ctx: FedContext, superior: string): Entity | undefined {
  const ids = ctx.registry.subordinates(superior);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: test plumbing: only where the random pick starts (the profile's hook contract: a random leaf)
  const start = ids.length > 0 ? randomInt(ids.length) : 0;
  // Stryker disable next-line EqualityOperator,UpdateOperator: test plumbing: one more round lands on the first pick again; the way round is the hook's own
  for (let i = 0; i < ids.length; i++) {
    const e = ctx.registry.get(ids[(start + i) % ids.length] as string);
    // Stryker disable next-line ConditionalExpression,LogicalOperator: test plumbing: which subordinate an update without id changes is the hook's choice (the demo's client is spared so that its key stays the one handed over)
    if (e && e.kind === "leaf" && e.id !== ctx.ids.client) return e;
  }
  return undefined;
}

function target(ctx: FedContext, superior: string, id: unknown, leafOnly: boolean): Entity {
  if (id === undefined) {
    const e = someLeaf(ctx, superior);
    // Stryker disable next-line ConditionalExpression,StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    if (!e) throw new FedError(409, "invalid_request", "there is no leaf to change");
    return e;
  }
  // Stryker disable next-line ConditionalExpression: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
  const e = typeof id === "string" ? ctx.registry.get(id) : undefined;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
  if (!e || !e.superiors.includes(superior))
    // Stryker disable next-line StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    throw new FedError(404, "not_found", "no such Immediate Subordinate");
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
  if ((leafOnly && e.kind !== "leaf") || e.id === ctx.ids.client) {
    // Stryker disable next-line StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    throw badRequest("invalid_request", "only leaves other than the demo's client can be removed");
  }
  return e;
}

function add(ctx: FedContext, superior: string, id: unknown): Record<string, unknown> {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a defensive bound on the federation's size that no requirement states
  if (ctx.registry.size >= LIMITS.maxEntities)
    // Stryker disable next-line StringLiteral: free text of the bound above
    throw new FedError(507, "invalid_request", "the federation is full");
  const newId = id ?? `${superior}/x-${randomBytes(6).toString("hex")}`;
  const segment =
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    typeof newId === "string" && newId.startsWith(`${superior}/`) ? newId.slice(superior.length + 1) : "";
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
  if (!SEGMENT.test(segment) || segment.length > LIMITS.maxSegmentChars || RESERVED_SEGMENTS.has(segment)) {
    // Stryker disable next-line StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    throw badRequest("invalid_request", `id must be ${superior}/<segment> (letters, digits, . _ ~ -)`);
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
  if (ctx.registry.get(newId as string)) throw new FedError(409, "invalid_request", "that entity exists");
  const now = ctx.now();
  const e = makeEntity({
    id: newId as string,
    kind: "leaf",
    superiors: [superior],
    template: ADDED,
    // Stryker disable next-line ArrayDeclaration: an added leaf's history without its registration: no requirement asks a history to hold one (specs/001: events "of interest to the federation")
    history: [{ iat: now, event: "registration" }],
    registered: now,
  });
  ctx.registry.add(e, now);
  // Stryker disable next-line StringLiteral: test plumbing: the change check reads only the id of the hook's answer
  return { op: "add", id: e.id, registered: e.registered, updated: e.updated };
}

function update(ctx: FedContext, superior: string, id: unknown, event: unknown): Record<string, unknown> {
  // Stryker disable next-line BooleanLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
  const e = target(ctx, superior, id, false);
  // Stryker disable next-line ArrayDeclaration: the update then becomes the entity's only event: a shorter history, which no requirement forbids
  const history = [...historyOf(e)];
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: test plumbing: which update event the hook records is its own choice; every one it can pick is a valid update event
  const cycle = e.kind === "intermediate" ? INTERMEDIATE_CYCLE : LEAF_CYCLE;
  // Stryker disable next-line MethodExpression,ArrowFunction: test plumbing: which update event of the cycle comes next is the hook's own choice
  const chosen = event ?? cycle[history.filter((h) => UPDATE_EVENTS.has(h.event)).length % cycle.length];
  // Stryker disable next-line ConditionalExpression: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none) (it never names the event)
  if (!cycle.includes(chosen as EventType))
    // Stryker disable next-line StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    throw badRequest("invalid_request", `event must be one of ${cycle.join(", ")}`);
  // Strictly after the last event: an update never shares its time with the registration.
  const iat = Math.max(ctx.now(), ...history.map((h) => h.iat + 1));
  // Stryker disable ConditionalExpression,EqualityOperator,StringLiteral,AssignmentOperator: which part of the Subordinate Statement an update changes is the hook's choice; the harness cannot know what a vendor's hook changed, so no requirement ties an event's type to a change it could compare (the event and updated are judged: FED-EVT-*)
  if (chosen === "metadata_update") e.revision += 1;
  if (chosen === "jwks_update") e.keyVersion += 1;
  if (chosen === "metadata_policy_update") e.policyRevision += 1;
  // Stryker restore ConditionalExpression,EqualityOperator,StringLiteral,AssignmentOperator
  // Stryker disable next-line ArrayDeclaration: the update then becomes the entity's only event: a shorter history, which no requirement forbids
  e.history = [...history, { iat, event: chosen as EventType, description: "changed through the test hook" }];
  e.updated = iat;
  ctx.registry.touch(iat);
  // Stryker disable next-line StringLiteral: test plumbing: the change check reads only the id of the hook's answer
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
  // A FedError thrown here is answered by app.ts like every other route's (errorResponse).
  return async (req: Request, suffix: string): Promise<Response> => {
    // Stryker disable next-line OptionalChaining,Regex,StringLiteral: test plumbing: the change hook's own bearer token check; the suite always sends the token the profile names (and without the header, "" and any replacement text both fail the pattern)
    const auth = /^Bearer ([\x21-\x7e]+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
    // Stryker disable next-line ConditionalExpression,LogicalOperator: test plumbing: the change hook's own bearer token check; the suite always sends the token the profile names
    if (auth === undefined || !sameSecret(auth, token))
      // Stryker disable next-line StringLiteral: test plumbing: the change hook's own bearer token check; the suite always sends the token the profile names
      throw new FedError(401, "invalid_token", "the hook needs its bearer token");
    const superior = suffix === "" ? ctx.ids.anchor : `${ctx.origin}${suffix}`;
    // Stryker disable next-line OptionalChaining: test plumbing: the hook's URL comes from the target's env, always an anchor's or an Intermediate's
    const kind = ctx.registry.get(superior)?.kind;
    // Stryker disable next-line ConditionalExpression: test plumbing (see above)
    if (kind !== "anchor" && kind !== "intermediate")
      // Stryker disable next-line StringLiteral: test plumbing (see above)
      throw new FedError(404, "not_found", "no such superior");
    const text = await readBoundedBody(req, 4096);
    // Stryker disable next-line ConditionalExpression,StringLiteral: a defensive bound on the hook's body that no requirement states (the suite's bodies are under 200 bytes)
    if (text === "too-large") throw new FedError(413, "invalid_request", "the body exceeds 4096 bytes");
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Stryker disable next-line StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
      throw badRequest("invalid_request", "the body must be a JSON object");
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    if (typeof body !== "object" || body === null)
      // Stryker disable next-line StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
      throw badRequest("invalid_request", "the body must be a JSON object");
    if (body.op === "add") return json(add(ctx, superior, body.id), 201);
    if (body.op === "update") return json(update(ctx, superior, body.id, body.event));
    // Stryker disable next-line ConditionalExpression: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    if (body.op === "remove") {
      // Stryker disable next-line BooleanLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
      const e = target(ctx, superior, body.id, true);
      ctx.registry.remove(e.id, ctx.now());
      // Stryker disable next-line StringLiteral: test plumbing: the change check reads only the id of the hook's answer
      return json({ op: "remove", id: e.id });
    }
    // Stryker disable next-line StringLiteral: test plumbing: the change hook's own validation; the suite's change check sends only valid requests (the three ops, ids it made or none)
    throw badRequest("invalid_request", "op must be add, update or remove");
  };
}
