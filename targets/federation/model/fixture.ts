import type { KeyRing } from "../keys.js";
import { LIMITS } from "../limits.js";
import {
  UPDATE_EVENTS,
  type Entity,
  type EntityKind,
  type EventRecord,
  type Metadata,
  type MetadataPolicy,
  type Template,
} from "./entity.js";
import { LEAVES, type LeafSpec, type MarkState } from "./leaves.data.js";
import { Registry } from "./registry.js";
import { issueMark, type MarkOrder } from "./trust-marks.js";

const DAY = 86_400;

/** The Entity Identifiers of the fixed federation, for a target at `origin`. */
export interface FederationIds {
  /** The Trust Anchor: the demo's target. */
  readonly anchor: string;
  /** A second Trust Anchor that also has int2 below it (the collection's trust_anchor). */
  readonly anchor2: string;
  /** An open Intermediate: generated members go here. */
  readonly int1: string;
  /** An Intermediate whose listing, collection and events endpoints require client authentication. */
  readonly int2: string;
  /** The leaf the demo profile authenticates as. */
  readonly client: string;
}

export const federationIds = (origin: string): FederationIds => ({
  anchor: `${origin}/ta`,
  anchor2: `${origin}/ta2`,
  int1: `${origin}/ta/int1`,
  int2: `${origin}/ta/int2`,
  client: `${origin}/ta/harness-client`,
});

/**
 * What a superior asserts about a leaf in its Subordinate Statement: the registry's contact
 * for the leaf's first entity type, changed by each metadata_update (specs/001 Events:
 * metadata_update is a change of the statement's metadata).
 */
// Stryker disable all: the fixture's data: what a superior asserts about a leaf is its choice (a Subordinate Statement's metadata is OPTIONAL), and the suite's resolve judge computes the Resolved Metadata from the statements served, whatever they hold
function leafStatementMetadata(e: Entity): Metadata {
  const first = Object.keys(e.template.metadata(e))[0] ?? "federation_entity";
  return { [first]: { contacts: [`registry+r${e.revision}@federation.example`] } };
}
// Stryker restore all

/** A leaf's template over metadata that may depend on the entity (generated members). */
export const leafTemplate = (metadata: (e: Entity) => Metadata): Template => ({
  metadata,
  statementMetadata: leafStatementMetadata,
});

// Each metadata_policy_update flips the policy between two revisions.
// Stryker disable all: the fixture's data: which metadata policy an Intermediate publishes, and how a revision changes it, is its choice; the suite's resolve judge (suites/federation/policy.ts) computes the Resolved Metadata, or the policy error, from the statements served, whatever policy they hold
const int1Policy = (e: Entity): MetadataPolicy => ({
  openid_relying_party: {
    grant_types: { subset_of: ["authorization_code", "refresh_token"], superset_of: ["authorization_code"] },
    token_endpoint_auth_method: { one_of: ["private_key_jwt", "self_signed_tls_client_auth"] },
    redirect_uris: { essential: true },
    application_type: { value: "web" },
    contacts: { add: ["federation-desk@universities.example"] },
    ...(e.policyRevision % 2 === 1 ? { id_token_signed_response_alg: { default: "ES256" } } : {}),
  },
});
const int2Policy = (e: Entity): MetadataPolicy => ({
  openid_relying_party: {
    id_token_signed_response_alg: { default: "ES256", one_of: ["ES256", "PS256"] },
    request_uris: { value: null },
    ...(e.policyRevision % 2 === 1 ? { grant_types: { subset_of: ["authorization_code"] } } : {}),
  },
});
// Stryker restore all

interface Node {
  readonly path: string;
  readonly kind: EntityKind;
  readonly superiors: readonly string[];
  readonly template: Template;
  readonly history: LeafSpec["history"];
  readonly marks?: LeafSpec["marks"];
  readonly suspended?: boolean;
  readonly protected?: boolean;
}

const fed = (m: Record<string, unknown>): Template => ({ metadata: () => ({ federation_entity: m }) });

const NODES: readonly Node[] = [
  {
    path: "/ta",
    kind: "anchor",
    superiors: [],
    // Stryker disable next-line ObjectLiteral: free text: an anchor's organization and display names (its endpoints are published apart from them)
    template: fed({
      organization_name: "idconform demo federation",
      // Stryker disable next-line StringLiteral: free text
      display_name: "Demo Federation",
      // Stryker disable next-line StringLiteral: free text
      "display_name#de": "Demo-Föderation",
      description: "Trust Anchor of idconform's reference federation",
    }),
    // Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent: an anchor is no one's subordinate, so its history, registered and updated are served nowhere (the extended list and the events endpoint speak of Immediate Subordinates)
    history: [[500, "registration"]],
  },
  {
    path: "/ta2",
    kind: "anchor",
    superiors: [],
    // Stryker disable next-line ObjectLiteral,StringLiteral: free text: an anchor's organization and display names
    template: fed({ organization_name: "Second federation", display_name: "Second Federation" }),
    // Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent: an anchor is no one's subordinate, so its history, registered and updated are served nowhere (the extended list and the events endpoint speak of Immediate Subordinates)
    history: [[480, "registration"]],
  },
  {
    path: "/ta/int1",
    kind: "intermediate",
    superiors: ["/ta"],
    template: {
      // Stryker disable ObjectLiteral,StringLiteral: free text: an Intermediate's display names (the locale checks compare what the target answers with what its Entity Configuration holds)
      ...fed({
        display_name: "Universities",
        "display_name#de": "Hochschulen",
        "display_name#fr": "Universités",
      }),
      // Stryker restore ObjectLiteral,StringLiteral
      policy: int1Policy,
      // Stryker disable next-line ObjectLiteral: the fixture's data: constraints are the superior's choice, and no chain holds an Intermediate below an Intermediate, so max_path_length never binds
      constraints: { max_path_length: 1 },
    },
    // Stryker disable next-line ArrayDeclaration: the fixture's data: an empty history (federation_registration_events is an array the document does not require to be non-empty; registered and updated are then the start time)
    history: [
      [450, "registration"],
      [180, "metadata_policy_update"],
      [70, "jwks_update"],
    ],
  },
  {
    path: "/ta/int2",
    kind: "intermediate",
    superiors: ["/ta", "/ta2"],
    template: {
      // Stryker disable ObjectLiteral,StringLiteral: free text: an Intermediate's display names (the locale checks compare what the target answers with what its Entity Configuration holds)
      ...fed({
        display_name: "Health",
        "display_name#de": "Gesundheit",
        description: "Health care providers",
      }),
      // Stryker restore ObjectLiteral,StringLiteral
      policy: int2Policy,
      // Stryker disable next-line ObjectLiteral: the fixture's data: constraints are the superior's choice, and no chain holds an Intermediate below an Intermediate, so max_path_length never binds
      constraints: { max_path_length: 1 },
    },
    // Stryker disable next-line ArrayDeclaration: the fixture's data: an empty history (federation_registration_events is an array the document does not require to be non-empty; registered and updated are then the start time)
    history: [
      [440, "registration"],
      [35, "metadata_policy_update"],
    ],
    protected: true,
  },
  ...LEAVES.map((l): Node => ({
    ...l,
    kind: "leaf",
    superiors: [l.path.slice(0, l.path.lastIndexOf("/"))],
    template: leafTemplate(() => l.metadata),
  })),
];

/** A fresh entity record; `updated` is its last update event, or its registration. */
export function makeEntity(o: {
  id: string;
  kind: EntityKind;
  superiors: readonly string[];
  template: Template;
  history: EventRecord[] | undefined;
  registered: number;
  updated?: number;
  protectedEndpoints?: boolean;
  suspended?: boolean;
}): Entity {
  // Stryker disable next-line MethodExpression,ArrayDeclaration: MethodExpression: the fixture's data: updated then also moves with a suspension or revocation, a change of the Subordinate Statement a superior may well make (FED-EVT-UPDATED-AGREES still holds); ArrayDeclaration: history is undefined only for generated members, and the members start option is 0 in every suite run
  const updates = (o.history ?? []).filter((h) => UPDATE_EVENTS.has(h.event));
  return {
    id: o.id,
    kind: o.kind,
    superiors: o.superiors,
    template: o.template,
    registered: o.registered,
    updated: o.updated ?? Math.max(o.registered, ...updates.map((h) => h.iat)),
    keyVersion: 0,
    revision: 0,
    policyRevision: 0,
    history: o.history,
    trustMarks: [],
    // Stryker disable next-line LogicalOperator,BooleanLiteral: fault machinery: suspended is read only by the list-hides-suspended fault, never in a mutation run
    suspended: o.suspended ?? false,
    // Stryker disable next-line BooleanLiteral: equivalent: only the hook's leaves take the default, and a leaf serves no endpoints to protect
    protectedEndpoints: o.protectedEndpoints ?? false,
  };
}

function markOrder(name: MarkOrder["name"], state: MarkState, now: number): MarkOrder {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the fixture's data: which marks are expired is its choice, and the suite judges every mark it sees by verifying it itself (the `true` variant, every mark expired, is silenced with them)
  return state === "expired"
    ? {
        name,
        // Stryker disable next-line ArithmeticOperator: equivalent: an expired mark is refused for its exp, whatever its iat
        iat: now - 400 * DAY,
        // Stryker disable next-line ArithmeticOperator: the fixture's data: which marks are expired is its choice (see above); `35 / DAY`, a mark that expired a moment ago, is silenced with it
        exp: now - 35 * DAY,
      }
    : {
        name,
        // Stryker disable next-line ArithmeticOperator: a Trust Mark's iat is its issuer's: no step of Trust Mark validation refuses a mark for its iat (signature, subject, type and exp are judged), so the fixture's choice shows nowhere
        iat: now - 30 * DAY,
        exp: now + 365 * DAY,
        // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the fixture's data: which marks are forged is its choice, and the suite verifies every mark it sees itself (the `true` variant, every valid mark forged, is silenced with them)
        forged: state === "forged",
      };
}

// Stryker disable all: the generated members' template: the members start option is 0 in every suite run (scale runs only)
/** A generated member's number, from its identifier's last segment (m0000042 → 42). */
const memberNumber = (e: Entity): number => Number(e.id.slice(e.id.lastIndexOf("/m") + 2));

const MEMBER: Template = leafTemplate((e) => {
  const n = memberNumber(e);
  return {
    openid_relying_party: {
      redirect_uris: [`https://member-${n}.example/callback`],
      response_types: ["code"],
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "private_key_jwt",
      display_name: `Member ${n}`,
      "display_name#de": `Mitglied ${n}`,
    },
    ...(n % 3 === 0 ? { oauth_client: { client_name: `Member ${n} backend` } } : {}),
  };
});
// Stryker restore all

/**
 * Builds the federation at `origin` as of `now`: two Trust Anchors, two Intermediates, the
 * fixed leaves and `members` generated leaves under int1 (ids m0000001…, so their identifier
 * order is their number order), with Trust Marks signed by the anchor.
 */
export async function buildFederation(o: {
  origin: string;
  now: number;
  keys: KeyRing;
  members: number;
}): Promise<{ registry: Registry; ids: FederationIds }> {
  const ids = federationIds(o.origin);
  const registry = new Registry(o.now);
  const day = (n: number): number => o.now - n * DAY;
  for (const node of NODES) {
    const history = node.history.map(([ago, event, description]): EventRecord => ({
      iat: day(ago),
      event,
      // Stryker disable next-line ObjectLiteral: free text: an event's description (event_description is OPTIONAL)
      ...(description ? { description } : {}),
    }));
    const e = makeEntity({
      id: `${o.origin}${node.path}`,
      kind: node.kind,
      superiors: node.superiors.map((s) => `${o.origin}${s}`),
      template: node.template,
      history,
      // Stryker disable next-line OptionalChaining: equivalent: every node's history starts with its registration
      registered: history[0]?.iat ?? o.now,
      protectedEndpoints: node.protected ?? false,
      // Stryker disable next-line LogicalOperator,BooleanLiteral: fault machinery: suspended is read only by the list-hides-suspended fault, never in a mutation run
      suspended: node.suspended ?? false,
    });
    registry.add(e, o.now);
  }
  const anchor = registry.get(ids.anchor) as Entity;
  for (const node of NODES) {
    const e = registry.get(`${o.origin}${node.path}`) as Entity;
    // Stryker disable next-line ArrayDeclaration: the fixture's data: every node without marks then publishes one more mark the anchor signs, of type <anchor>/trust-marks/S, which its trust_mark_issuers does not name: a resolver drops such a mark, and publishing it is no rule's failure
    for (const [name, state] of node.marks ?? []) {
      e.trustMarks.push(await issueMark(o.keys, anchor, e.id, markOrder(name, state, o.now)));
    }
  }
  // Stryker disable next-line MethodExpression: a defensive clamp (start.ts already refuses a members option outside 0..maxGeneratedMembers); at 0, in every suite run, only the Math.max variant differs (100,000 members: a timeout), silenced with it
  const count = Math.min(Math.max(0, Math.floor(o.members)), LIMITS.maxGeneratedMembers);
  const generated: Entity[] = [];
  // Stryker disable all: the generated members: the members start option is 0 in every suite run (scale runs only), so the loop's body never runs; of the loop's own variants only `n > count` differs at 0, and it never ends
  for (let n = 1; n <= count; n++) {
    const registered = day(300) + Math.floor((n * 290 * DAY) / (count + 1));
    const e = makeEntity({
      id: `${ids.int1}/m${String(n).padStart(7, "0")}`,
      kind: "leaf",
      superiors: [ids.int1],
      template: MEMBER,
      history: undefined,
      registered,
      updated: n % 4 === 0 ? registered + ((n % 7) + 1) * DAY : registered,
    });
    if (n % 25 === 0) {
      e.trustMarks.push(
        await issueMark(
          o.keys,
          anchor,
          e.id,
          markOrder("certified", n % 50 === 0 ? "expired" : "valid", o.now),
        ),
      );
    }
    generated.push(e);
  }
  // Stryker restore all
  registry.addBulk(generated, ids.int1);
  return { registry, ids };
}
