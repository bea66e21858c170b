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
function leafStatementMetadata(e: Entity): Metadata {
  const first = Object.keys(e.template.metadata(e))[0] ?? "federation_entity";
  return { [first]: { contacts: [`registry+r${e.revision}@federation.example`] } };
}

/** A leaf's template over metadata that may depend on the entity (generated members). */
export const leafTemplate = (metadata: (e: Entity) => Metadata): Template => ({
  metadata,
  statementMetadata: leafStatementMetadata,
});

// Each metadata_policy_update flips the policy between two revisions.
const int1Policy = (e: Entity): MetadataPolicy => ({
  openid_relying_party: {
    grant_types: { subset_of: ["authorization_code", "refresh_token"] },
    token_endpoint_auth_method: { one_of: ["private_key_jwt", "self_signed_tls_client_auth"] },
    ...(e.policyRevision % 2 === 1 ? { id_token_signed_response_alg: { default: "ES256" } } : {}),
  },
});
const int2Policy = (e: Entity): MetadataPolicy => ({
  openid_relying_party: {
    id_token_signed_response_alg: { default: "ES256", one_of: ["ES256", "PS256"] },
    ...(e.policyRevision % 2 === 1 ? { grant_types: { subset_of: ["authorization_code"] } } : {}),
  },
});

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
    template: fed({
      organization_name: "idconform demo federation",
      display_name: "Demo Federation",
      "display_name#de": "Demo-Föderation",
      description: "Trust Anchor of idconform's reference federation",
    }),
    history: [[500, "registration"]],
  },
  {
    path: "/ta2",
    kind: "anchor",
    superiors: [],
    template: fed({ organization_name: "Second federation", display_name: "Second Federation" }),
    history: [[480, "registration"]],
  },
  {
    path: "/ta/int1",
    kind: "intermediate",
    superiors: ["/ta"],
    template: {
      ...fed({
        display_name: "Universities",
        "display_name#de": "Hochschulen",
        "display_name#fr": "Universités",
      }),
      policy: int1Policy,
      constraints: { max_path_length: 0 },
    },
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
      ...fed({
        display_name: "Health",
        "display_name#de": "Gesundheit",
        description: "Health care providers",
      }),
      policy: int2Policy,
      constraints: { max_path_length: 0 },
    },
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
    suspended: o.suspended ?? false,
    protectedEndpoints: o.protectedEndpoints ?? false,
  };
}

function markOrder(name: MarkOrder["name"], state: MarkState, now: number): MarkOrder {
  return state === "expired"
    ? { name, iat: now - 400 * DAY, exp: now - 35 * DAY }
    : { name, iat: now - 30 * DAY, exp: now + 365 * DAY, forged: state === "forged" };
}

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
      ...(description ? { description } : {}),
    }));
    const e = makeEntity({
      id: `${o.origin}${node.path}`,
      kind: node.kind,
      superiors: node.superiors.map((s) => `${o.origin}${s}`),
      template: node.template,
      history,
      registered: history[0]?.iat ?? o.now,
      protectedEndpoints: node.protected ?? false,
      suspended: node.suspended ?? false,
    });
    registry.add(e, o.now);
  }
  const anchor = registry.get(ids.anchor) as Entity;
  for (const node of NODES) {
    const e = registry.get(`${o.origin}${node.path}`) as Entity;
    for (const [name, state] of node.marks ?? []) {
      e.trustMarks.push(await issueMark(o.keys, anchor, e.id, markOrder(name, state, o.now)));
    }
  }
  const count = Math.min(Math.max(0, Math.floor(o.members)), LIMITS.maxGeneratedMembers);
  const generated: Entity[] = [];
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
  registry.addBulk(generated, ids.int1);
  return { registry, ids };
}
