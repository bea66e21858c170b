import { LIMITS } from "../limits.js";

interface Session {
  readonly user: string;
  revoked: boolean;
}

/** Users are known by email; case does not make another user. */
export const userKey = (email: string): string => email.toLowerCase();

/**
 * The Receiver's own view of its users and their sessions, in memory: what CAEP events act on
 * (CAEP 1.0 §3: session-revoked ends sessions; access-reducing events lower a user's access).
 * A revoked session stays revoked: only a new session (a new login) is active.
 */
export class Directory {
  private readonly sessions = new Map<string, Session>();
  private readonly users = new Map<string, { access: boolean }>();

  /** A new active session of `user` (the test hook); "conflict" when the id is taken, "full" at the bound. */
  open(user: string, session: string): "ok" | "conflict" | "full" {
    // Stryker disable next-line all: the test hook's own answers for a reused session id; the harness opens fresh ones
    if (this.sessions.has(session)) return "conflict";
    const key = userKey(user);
    // Stryker disable next-line all: memory bounds of the Receiver, far above what a run opens
    if (this.sessions.size >= LIMITS.maxSessions) return "full";
    // Stryker disable next-line all: memory bounds of the Receiver, far above what a run opens
    if (!this.users.has(key) && this.users.size >= LIMITS.maxUsers) return "full";
    this.sessions.set(session, { user: key, revoked: false });
    if (!this.users.has(key)) this.users.set(key, { access: true });
    return "ok";
  }

  hasSession(id: string): boolean {
    return this.sessions.has(id);
  }

  hasUser(email: string): boolean {
    return this.users.has(userKey(email));
  }

  /** The user a session belongs to. */
  ownerOf(session: string): string | undefined {
    return this.sessions.get(session)?.user;
  }

  /** Every session of a user. */
  sessionsOf(email: string): string[] {
    const key = userKey(email);
    return [...this.sessions].filter(([, s]) => s.user === key).map(([id]) => id);
  }

  /** Every session the Receiver holds. */
  allSessions(): string[] {
    return [...this.sessions.keys()];
  }

  revoke(session: string): void {
    const s = this.sessions.get(session);
    if (s) s.revoked = true;
  }

  /** The session-established-revives fault's mistake: marking a session active again. */
  revive(session: string): void {
    const s = this.sessions.get(session);
    if (s) s.revoked = false;
  }

  reduceAccess(email: string): void {
    const u = this.users.get(userKey(email));
    if (u) u.access = false;
  }

  /** "active", "revoked" or "unknown". */
  sessionState(id: string): "active" | "revoked" | "unknown" {
    const s = this.sessions.get(id);
    return s === undefined ? "unknown" : s.revoked ? "revoked" : "active";
  }

  /** "granted", "reduced" or "unknown". */
  accessOf(email: string): "granted" | "reduced" | "unknown" {
    const u = this.users.get(userKey(email));
    return u === undefined ? "unknown" : u.access ? "granted" : "reduced";
  }
}
