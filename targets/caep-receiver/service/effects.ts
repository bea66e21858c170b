import { SetError } from "../set/errors.js";
import type { VerifiedSet } from "../set/verify.js";
import { resolveSubject, type Named, type SubjectContext } from "./subjects.js";

/** Whether an event lowers the access of the user it is about (CAEP 1.0 §3.3 to §3.5, §3.8). */
function reducesAccess(
  name: string,
  claims: Readonly<Record<string, unknown>>,
  ctx: SubjectContext,
): boolean {
  switch (name) {
    case "credential-change":
      return claims.change_type === "revoke";
    case "assurance-level-change":
      return claims.change_direction === "decrease";
    case "device-compliance-change":
      return claims.current_status === "not-compliant" && !ctx.faults.has("device-noncompliance-ignored");
    case "risk-level-change":
      return claims.current_level === "HIGH";
    // Stryker disable next-line ConditionalExpression: equivalent: without its return the switch ends in undefined, which reads as false
    default:
      return false;
  }
}

/** session-revoked (CAEP 1.0 §3.1): the sessions pinned, else every session of the users named. */
function revokeSessions(named: Named, format: unknown, ctx: SubjectContext): void {
  const dir = ctx.directory;
  if (ctx.faults.has("complex-session-revoked-ignored") && format === "complex") return;
  if (ctx.faults.has("email-session-revoked-ignored") && format === "email") return;
  const sessions = ctx.faults.has("revoke-all-sessions")
    ? dir.allSessions()
    : named.pinsSessions
      ? named.sessions
      : named.users.flatMap((u) => dir.sessionsOf(u));
  for (const s of sessions) dir.revoke(s);
}

/**
 * Acts on the events of a verified SET before it is acknowledged, so the next request sees the
 * change: session-revoked ends the sessions named; credential-change revoke, assurance-level-change
 * decrease, device-compliance-change to not-compliant and risk-level-change to HIGH take the
 * user's access away; session-established never makes a revoked session active again (a
 * session comes back only with a new login). Events about subjects the Receiver does not know
 * change nothing.
 */
export function applyEvents(set: VerifiedSet, ctx: SubjectContext): void {
  const named = resolveSubject(set.subject, ctx);
  // Stryker disable next-line OptionalChaining: equivalent: subject is undefined only under the sub-id-optional fault
  const format = set.subject?.format;
  for (const { name, claims } of set.events) {
    if (
      ctx.faults.has("unknown-subject-404") &&
      name !== "verification" &&
      named.sessions.length + named.users.length === 0
    ) {
      throw new SetError("invalid_request", "the subject is not known to this Receiver", 404);
    }
    if (name === "session-revoked" && !ctx.faults.has("session-revoked-logged-only")) {
      revokeSessions(named, format, ctx);
    }
    if (ctx.faults.has("session-established-revives") && name === "session-established") {
      const sessions = named.pinsSessions
        ? named.sessions
        : named.users.flatMap((u) => ctx.directory.sessionsOf(u));
      for (const s of sessions) ctx.directory.revive(s);
    }
    if (reducesAccess(name, claims, ctx)) {
      const users =
        // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrowFunction: this Receiver's policy: an access-reducing event naming only a session lowers its owner's access; CAEP 1.0 §3.3–§3.5, §3.8 do not say what it does to the user, and no requirement judges it
        named.users.length > 0 ? named.users : named.sessions.map((s) => ctx.directory.ownerOf(s));
      // Stryker disable next-line ConditionalExpression: equivalent: ownerOf answers for every session the directory holds
      for (const u of users) if (u !== undefined) ctx.directory.reduceAccess(u);
    }
  }
}
