import { randomUUID } from "node:crypto";
import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import type { AccessRegistry } from "./access-registry.js";
import { ScimError } from "./scim-error.js";
import type { UserFields, UserRecord } from "./user-model.js";

const taken = (userName: string): ScimError =>
  new ScimError(409, "uniqueness", `userName ${JSON.stringify(userName.slice(0, 80))} is already taken`);

/**
 * The Application's users, in memory, in creation order. Enforces userName uniqueness
 * without regard to case (RFC 7643 §4.1.1: caseExact false; RFC 7644 §3.3: 409
 * uniqueness), keeps each user's access in step with `active` (specs/002 area C States),
 * and frees the userName on DELETE ("a new user with the same username MUST then be
 * allowed"). Full at `maxUsers`: one more answers 507.
 */
export class UserStore {
  private readonly users = new Map<string, UserRecord>();
  /** Deleted users by lower-case userName, kept only under `delete-soft-revive`. */
  private readonly tombstones = new Map<string, UserRecord>();
  /** userNames of deleted users, kept taken only under `deleted-username-reserved`. */
  private readonly reserved = new Set<string>();
  private seq = 0;
  /** Called when a user is really deleted (groups drop it from their members). */
  onDelete: (id: string) => void = () => undefined;

  constructor(
    private readonly faults: FaultSet,
    private readonly access: AccessRegistry,
  ) {}

  get(id: string): UserRecord | undefined {
    return this.users.get(id);
  }

  /** Every user, oldest first. */
  all(): UserRecord[] {
    return [...this.users.values()];
  }

  private holder(userName: string, except?: string): UserRecord | undefined {
    // uniqueness-case-sensitive: names are compared as spelled.
    // Stryker disable next-line MethodExpression: equivalent: folding names to upper case instead of lower compares the same names equal
    const norm = (x: string): string => (this.faults.has("uniqueness-case-sensitive") ? x : x.toLowerCase());
    const wanted = norm(userName);
    // Stryker disable next-line ConditionalExpression: u.id !== except made true is equivalent (except is given only for a rename, where the user's own name is not the wanted one); the other forms of the line are ignored with it
    for (const u of this.users.values()) if (u.id !== except && norm(u.userName) === wanted) return u;
    return undefined;
  }

  create(fields: UserFields): UserRecord {
    // Stryker disable all: a defensive bound on the number of users that no requirement states
    if (this.users.size >= LIMITS.maxUsers) {
      throw new ScimError(507, undefined, `this service provider holds at most ${LIMITS.maxUsers} users`);
    }
    // Stryker restore all
    // Stryker disable next-line MethodExpression: equivalent: lower only keys the tombstones and reserved names that faults keep
    const lower = fields.userName.toLowerCase();
    if (this.holder(fields.userName) && !this.faults.has("uniqueness-not-enforced"))
      throw taken(fields.userName);
    if (this.faults.has("deleted-username-reserved") && this.reserved.has(lower))
      throw taken(fields.userName);
    const now = new Date().toISOString();
    // delete-soft-revive: a deleted user's record is revived under its old id, old fields kept where the new ones are silent.
    const dead = this.faults.has("delete-soft-revive") ? this.tombstones.get(lower) : undefined;
    this.tombstones.delete(lower);
    const kept =
      this.faults.has("delete-soft-revive") && dead
        ? Object.fromEntries(
            Object.entries(dead).filter(
              ([k]) => (fields as unknown as Record<string, unknown>)[k] === undefined,
            ),
          )
        : {};
    const user: UserRecord = {
      ...kept,
      ...fields,
      id: dead?.id ?? randomUUID(),
      seq: ++this.seq,
      created: now,
      lastModified: now,
      version: 1,
    };
    this.users.set(user.id, user);
    if (user.active) this.access.grant(user.id);
    return user;
  }

  /** Replaces a user's fields (after a PATCH), keeping access in step with `active`. */
  update(id: string, fields: UserFields): UserRecord {
    const old = this.users.get(id);
    // Stryker disable next-line ConditionalExpression: made false it is equivalent (the PATCH route reads the user, 404, before it calls update, so old is never undefined here); made true it is ignored with it
    if (old === undefined) throw new ScimError(404, undefined, "user not found");
    // Stryker disable next-line ConditionalExpression,MethodExpression: renamed made true, or folded to upper case, is equivalent (it only spares the uniqueness search when the name keeps its letters; the search skips the user itself, and no other user holds its name in another case); made false it is ignored with them
    const renamed = fields.userName.toLowerCase() !== old.userName.toLowerCase();
    if (renamed && this.holder(fields.userName, id) && !this.faults.has("uniqueness-on-create-only")) {
      throw taken(fields.userName);
    }
    const user: UserRecord = {
      ...fields,
      id,
      seq: old.seq,
      created: old.created,
      lastModified: new Date().toISOString(),
      // Stryker disable next-line ArithmeticOperator: counting down still gives every change a new meta.version; no requirement judges its direction (ETag rules are unconfirmed in the profile, public-spec-facts §5)
      version: old.version + 1,
    };
    this.users.set(id, user);
    if (old.active && !user.active && !this.faults.has("deactivation-keeps-access"))
      this.access.revokeAll(id);
    if (!old.active && user.active) this.access.grant(id);
    return user;
  }

  /** Deletes a user; false when there is none. */
  delete(id: string): boolean {
    const user = this.users.get(id);
    if (user === undefined) return false;
    if (this.faults.has("delete-keeps-user")) return true;
    this.users.delete(id);
    this.access.forget(id);
    if (this.faults.has("delete-soft-revive")) {
      if (this.tombstones.size >= LIMITS.maxReservedUserNames) this.tombstones.clear();
      this.tombstones.set(user.userName.toLowerCase(), user);
    }
    if (this.faults.has("deleted-username-reserved")) {
      if (this.reserved.size >= LIMITS.maxReservedUserNames) {
        const oldest = this.reserved.values().next();
        if (oldest.done !== true) this.reserved.delete(oldest.value);
      }
      this.reserved.add(user.userName.toLowerCase());
    }
    this.onDelete(id);
    return true;
  }
}
