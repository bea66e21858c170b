import { badRequest } from "./scim-error.js";
import { asList, asNonEmpty, asObject, asString, lowerKeys } from "./values.js";

export const GROUP_URN = "urn:ietf:params:scim:schemas:core:2.0:Group";

/** The attributes a client controls (RFC 7643 §4.2); members are user ids, in the order added. */
export interface GroupFields {
  displayName: string;
  externalId?: string;
  members: string[];
}

export interface GroupRecord extends GroupFields {
  readonly id: string;
  readonly seq: number;
  readonly created: string;
  lastModified: string;
  version: number;
}

/** Resolves a member id to its user's display text; undefined when there is no such user. */
export type MemberLookup = (userId: string) => { readonly display: string } | undefined;

/**
 * Member ids from a `members` value: `[{ "value": id }]` (one object alone is accepted).
 * Only users are members here (the Application's Roles hold users); an id that is no
 * user is 400 invalidValue rather than a dangling reference.
 */
export function parseMembers(v: unknown, lookup: MemberLookup): string[] {
  if (v === null || v === undefined) return [];
  const ids = asList(v).map((raw) => {
    const m = lowerKeys(asObject(raw, "members value"));
    const id = asNonEmpty(m.get("value"), "members.value");
    if (lookup(id) === undefined)
      throw badRequest("invalidValue", `member ${JSON.stringify(id.slice(0, 80))} is not a user`);
    return id;
  });
  return [...new Set(ids)];
}

/** A Group from a POST body (RFC 7644 §3.3): displayName required, members optional. */
export function parseGroupInput(body: Record<string, unknown>, lookup: MemberLookup): GroupFields {
  const m = lowerKeys(body);
  const schemas = m.get("schemas");
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(GROUP_URN))) {
    throw badRequest("invalidValue", `schemas must include ${GROUP_URN}`);
  }
  if (m.get("displayname") === undefined) throw badRequest("invalidValue", "displayName is required");
  const group: GroupFields = {
    displayName: asNonEmpty(m.get("displayname"), "displayName"),
    members: parseMembers(m.get("members"), lookup),
  };
  const ext = m.get("externalid");
  if (ext !== undefined && ext !== null) group.externalId = asString(ext, "externalId");
  return group;
}

/** Member values as answered: `{ value, display, $ref, type }` (RFC 7643 §4.2). */
export function memberValues(g: GroupFields, base: string, lookup: MemberLookup): Record<string, unknown>[] {
  return g.members.map((id) => {
    const user = lookup(id);
    return {
      value: id,
      ...(user ? { display: user.display } : {}),
      $ref: `${base}/Users/${id}`,
      type: "User",
    };
  });
}

/** The Group resource as answered; `withMembers` false leaves members out (excludedAttributes). */
export function renderGroup(
  g: GroupRecord,
  base: string,
  lookup: MemberLookup,
  withMembers: boolean,
): Record<string, unknown> {
  return {
    schemas: [GROUP_URN],
    id: g.id,
    ...(g.externalId !== undefined ? { externalId: g.externalId } : {}),
    displayName: g.displayName,
    ...(withMembers ? { members: memberValues(g, base, lookup) } : {}),
    meta: {
      resourceType: "Group",
      created: g.created,
      lastModified: g.lastModified,
      location: `${base}/Groups/${g.id}`,
      version: `W/"${g.version}"`,
    },
  };
}
