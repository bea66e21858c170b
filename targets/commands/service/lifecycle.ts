import type { FaultSet } from "../faults.js";
import type { AsyncBase, LifecycleCommand } from "./commands.js";

/** Steady account states (specs/002 area A States and transitions: Account lifecycle). */
export type SteadyState = "unknown" | "active" | "suspended" | "archived";
/** Temporary states while an asynchronous command runs. */
export type PendingState = `${AsyncBase}_pending`;
export type AccountState = SteadyState | PendingState;

/** One row of the state table: where a command may start, where it leads, what it does. */
export interface Transition {
  readonly from: readonly SteadyState[];
  readonly to: SteadyState;
  /** Invalidate Functionality: all sessions and tokens of the account are revoked. */
  readonly revokes: boolean;
  /** The user can act again (a fresh session: sign-in after activation, reactivation, restore). */
  readonly grants: boolean;
}

/** The Account lifecycle table of specs/002 area A, exactly. */
const TABLE: Record<LifecycleCommand, Transition> = {
  activate: {
    from: ["unknown"],
    to: "active",
    // Stryker disable next-line BooleanLiteral: equivalent: a new account holds no session to revoke
    revokes: false,
    grants: true,
  },
  maintain: {
    from: ["active"],
    to: "active",
    // Stryker disable next-line BooleanLiteral: the document lists no effect of maintain on sessions (it neither asks for the Invalidate Functionality nor forbids it)
    revokes: false,
    // Stryker disable next-line BooleanLiteral: a grant models the user signing in; the document states nothing about sessions after maintain
    grants: false,
  },
  suspend: { from: ["active"], to: "suspended", revokes: true, grants: false },
  reactivate: {
    from: ["suspended"],
    to: "active",
    // Stryker disable next-line BooleanLiteral: equivalent: a suspended account holds no session (suspend revoked them), and the fresh one is granted after
    revokes: false,
    // Stryker disable next-line BooleanLiteral: the user signing in again after reactivate: the document states no session the RP must hold then ("Account marked active")
    grants: true,
  },
  archive: { from: ["active", "suspended"], to: "archived", revokes: true, grants: false },
  restore: {
    from: ["archived"],
    to: "active",
    // Stryker disable next-line BooleanLiteral: equivalent: an archived account holds no session (archive revoked them), and the fresh one is granted after
    revokes: false,
    // Stryker disable next-line BooleanLiteral: the user signing in again after restore: the document states no session the RP must hold then ("Account restored to the register")
    grants: true,
  },
  delete: {
    from: ["active", "suspended", "archived"],
    to: "unknown",
    // Stryker disable next-line BooleanLiteral: equivalent: apply() removes a deleted account and revokes its sessions whatever the row says
    revokes: true,
    // Stryker disable next-line BooleanLiteral: equivalent: apply() returns before granting for a deleted account
    grants: false,
  },
  invalidate: { from: ["active"], to: "active", revokes: true, grants: false },
};

/**
 * The transition of `command` for this target: the table, bent by the lifecycle faults
 * (`activate-existing-succeeds`, `delete-unknown-200`, `restore-to-suspended`,
 * `suspend-keeps-sessions`) and by nothing else.
 */
export function transitionOf(command: LifecycleCommand, faults: FaultSet): Transition {
  const row = TABLE[command];
  if (command === "activate" && faults.has("activate-existing-succeeds")) {
    return { ...row, from: ["unknown", "active"] };
  }
  if (command === "delete" && faults.has("delete-unknown-200")) {
    return { ...row, from: ["unknown", ...row.from] };
  }
  if (command === "restore" && faults.has("restore-to-suspended")) {
    return { ...row, to: "suspended", grants: false };
  }
  if (command === "suspend" && faults.has("suspend-keeps-sessions")) return { ...row, revokes: false };
  return row;
}

export const pendingStateOf = (base: AsyncBase): PendingState => `${base}_pending`;
