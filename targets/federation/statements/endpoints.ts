import type { FedContext } from "../context.js";
import type { Entity } from "../model/entity.js";

/** The endpoints the target serves, by the path segment after the entity's identifier. */
export const ENDPOINTS = {
  fetch: "federation_fetch_endpoint",
  list: "federation_list_endpoint",
  resolve: "federation_resolve_endpoint",
  "extended-list": "federation_extended_list_endpoint",
  collection: "federation_collection_endpoint",
  events: "federation_subordinate_events_endpoint",
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

const ALL = Object.keys(ENDPOINTS) as EndpointName[];

/**
 * The endpoints `e` serves: the Trust Anchor and the Intermediates all of them (base fetch,
 * list and resolve, and the three of specs/001), the second anchor only the base fetch and list,
 * leaves none.
 */
export function endpointsOf(ctx: FedContext, e: Entity): readonly EndpointName[] {
  if (e.kind === "leaf") return [];
  if (e.id === ctx.ids.anchor2) return ["fetch", "list"];
  return ALL;
}

/** Entity identifier path segments that cannot name a new subordinate (they name endpoints). */
// Stryker disable next-line ArrayDeclaration,StringLiteral: test plumbing: the vendor test hook's own validation of a new subordinate's name (the suite never asks it for an endpoint's name)
export const RESERVED_SEGMENTS: ReadonlySet<string> = new Set([...ALL, ".well-known"]);
