import type { FaultSet } from "../faults.js";
import { compileFilter } from "./filter-eval.js";
import { MEMBER_SUB } from "./filter-schemas.js";
import { GROUP_URN, memberValues, parseMembers, type GroupFields, type MemberLookup } from "./group-model.js";
import { expandPathless, type PatchOperation } from "./patch-op.js";
import { badRequest } from "./scim-error.js";
import { asNonEmpty, asString } from "./values.js";

/**
 * Applies a PatchOp to a group (RFC 7644 §3.5.2; public-spec-facts §5: add with path
 * `members` and value `[{"value": id}]`, remove with path `members[value eq "id"]`).
 * Also: replace displayName or externalId, replace or clear members, and remove with
 * path `members` plus a value listing the members to take out (a common client form).
 * Works on a copy: a failing operation changes nothing.
 */
export function patchGroup(
  current: GroupFields,
  ops: readonly PatchOperation[],
  lookup: MemberLookup,
  faults: FaultSet,
): GroupFields {
  const g: GroupFields = { ...current, members: [...current.members] };
  for (const op of ops.flatMap(expandPathless)) {
    const p = op.path;
    // Stryker disable next-line ConditionalExpression: equivalent: expandPathless gives every operation it returns a path (a pathless one is expanded or refused); the test only narrows the type
    if (p === undefined) continue;
    // Stryker disable all: refusals of paths (another schema, a filter on a single-valued attribute), a group PATCH form the profile leaves open (public-spec-facts §5 fixes add members and remove members[value eq id] only)
    if (p.urn !== undefined && p.urn !== GROUP_URN.toLowerCase())
      throw badRequest("invalidPath", "unknown schema in path");
    if (p.attr !== "members" && (p.filter !== undefined || p.sub !== undefined)) {
      throw badRequest("invalidPath", `${p.attr} has no values to select`);
    }
    // Stryker restore all
    switch (p.attr) {
      // Stryker disable all: displayName and externalId replaces and read-only paths, a group PATCH form the profile leaves open (public-spec-facts §5 fixes add members and remove members[value eq id] only)
      case "displayname":
        if (op.op === "remove")
          throw badRequest("mutability", "displayName is required and cannot be removed");
        g.displayName = asNonEmpty(op.value, "displayName");
        break;
      case "externalid":
        if (op.op === "remove" || op.value === null) delete g.externalId;
        else g.externalId = asString(op.value, "externalId");
        break;
      // Stryker restore all
      case "members":
        g.members = patchMembers(g, op, lookup, faults);
        break;
      // Stryker disable all: refusals of read-only and unknown paths, a group PATCH form the profile leaves open (public-spec-facts §5 fixes add members and remove members[value eq id] only)
      case "id":
      case "meta":
      case "schemas":
        throw badRequest("mutability", `${p.attr} is read-only`);
      default:
        throw badRequest("invalidPath", `attribute ${p.attr.slice(0, 80)} cannot be patched`);
      // Stryker restore all
    }
  }
  return g;
}

function patchMembers(g: GroupFields, op: PatchOperation, lookup: MemberLookup, faults: FaultSet): string[] {
  const p = op.path;
  // Stryker disable next-line all: a group PATCH form the profile leaves open (public-spec-facts §5 fixes add members and remove members[value eq id] only)
  if (p?.sub !== undefined) throw badRequest("invalidPath", "members are added or removed whole");
  if (op.op === "add") {
    const added = parseMembers(op.value, lookup);
    if (faults.has("member-add-ignored")) return g.members;
    // member-add-replaces: add is taken for replace, so the members already there are lost.
    if (faults.has("member-add-replaces")) return added;
    return [...new Set([...g.members, ...added])];
  }
  // Which members the operation selects: by the path's filter, by a listed value, or all.
  let selected: ReadonlySet<string>;
  if (p?.filter !== undefined && op.op === "remove" && faults.has("member-remove-filter-ignored")) {
    // The filter is dropped and the path read as plain `members`: every member is selected.
    selected = new Set(g.members);
  } else if (p?.filter !== undefined) {
    const match = compileFilter(p.filter, { urns: [], leaves: MEMBER_SUB, multi: {} });
    selected = new Set(
      memberValues(g, "", lookup)
        .filter(match)
        .map((m) => String(m.value)),
    );
    // Stryker disable all: remove by a listed value, replace of members, a group PATCH form the profile leaves open (public-spec-facts §5 fixes add members and remove members[value eq id] only)
  } else if (op.op === "remove" && op.value !== undefined && op.value !== null) {
    selected = new Set(parseMembers(op.value, () => ({ display: "" })));
  } else {
    selected = new Set(g.members);
  }
  // Stryker restore all
  // Stryker disable next-line all: equivalent for the profile's forms: its remove carries no value, so the replace branch keeps the same members; replace of members is a form the profile leaves open
  if (op.op === "remove") {
    if (faults.has("member-remove-ignored")) return g.members;
    return g.members.filter((id) => !selected.has(id));
  }
  // replace: the selected members give way to the given ones.
  // Stryker disable all: a group PATCH form the profile leaves open (public-spec-facts §5 fixes add members and remove members[value eq id] only)
  const kept = g.members.filter((id) => !selected.has(id));
  return [...new Set([...kept, ...parseMembers(op.value, lookup)])];
  // Stryker restore all
}
