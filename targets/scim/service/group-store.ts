import { randomUUID } from "node:crypto";
import { LIMITS } from "../limits.js";
import type { GroupFields, GroupRecord } from "./group-model.js";
import { ScimError } from "./scim-error.js";

/**
 * The Application's groups (its Roles, specs/002 area C Resources), in memory, in creation
 * order. Full at `maxGroups`: one more answers 507.
 */
export class GroupStore {
  private readonly groups = new Map<string, GroupRecord>();
  private seq = 0;

  get(id: string): GroupRecord | undefined {
    return this.groups.get(id);
  }

  all(): GroupRecord[] {
    return [...this.groups.values()];
  }

  create(fields: GroupFields): GroupRecord {
    // Stryker disable next-line all: a memory bound of the reference target that no requirement states
    if (this.groups.size >= LIMITS.maxGroups) {
      throw new ScimError(507, undefined, `this service provider holds at most ${LIMITS.maxGroups} groups`);
    }
    const now = new Date().toISOString();
    const group: GroupRecord = {
      ...fields,
      id: randomUUID(),
      seq: ++this.seq,
      created: now,
      lastModified: now,
      version: 1,
    };
    this.groups.set(group.id, group);
    return group;
  }

  update(id: string, fields: GroupFields): GroupRecord {
    const old = this.groups.get(id);
    // Stryker disable next-line ConditionalExpression: the routes update only a group they have just found (and dropMember only groups it walks), so this refusal never runs
    if (old === undefined) throw new ScimError(404, undefined, "group not found");
    const group: GroupRecord = {
      ...fields,
      id,
      seq: old.seq,
      created: old.created,
      lastModified: new Date().toISOString(),
      // Stryker disable next-line ArithmeticOperator: equivalent: the version still changes on every update, and an entity-tag is opaque (RFC 9110 §8.8.3)
      version: old.version + 1,
    };
    this.groups.set(id, group);
    return group;
  }

  delete(id: string): boolean {
    return this.groups.delete(id);
  }

  /** A deleted user leaves every group it was in (no dangling member references). */
  // Stryker disable all: what becomes of a deleted user's group memberships is left open (RFC 7644 §3.6 speaks only of the deleted resource itself; the profile fixes no Group attributes)
  dropMember(userId: string): void {
    for (const g of this.groups.values()) {
      if (g.members.includes(userId))
        this.update(g.id, { ...g, members: g.members.filter((m) => m !== userId) });
    }
  }
  // Stryker restore all
}
