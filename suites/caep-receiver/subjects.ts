import { randomBytes } from "node:crypto";

/** A subject identifier (RFC 9493): `format` and its members. */
export type SubId = Record<string, unknown> & { readonly format: string };

/**
 * One user with one session, fresh for a probe, under every form the Receiver knows them by
 * (suites.caep-receiver `hooks.session`): the user by email and as `iss_sub` {transmitter
 * issuer, email}, the session by its opaque id, and both together as `complex` {user, session}.
 */
export interface FreshSubject {
  readonly email: string;
  readonly sessionId: string;
  /** `{format: "email", email}` */
  readonly user: SubId;
  /** `{format: "opaque", id: sessionId}` */
  readonly session: SubId;
  /** `{format: "iss_sub", iss: <transmitter issuer>, sub: email}` */
  readonly issSub: SubId;
  /** `{format: "complex", user, session}` */
  readonly complex: SubId;
}

/**
 * Hands out identifiers no other check of the run (nor another run) uses: the run tag, a
 * per-worker counter and a random part, as `idc-<runtag>-<n><rand>@example.com` and
 * `idc-<runtag>-s<n><rand>`. Checks run in parallel workers, so the counter alone would collide.
 */
export class Subjects {
  private n = 0;
  private readonly tag: string;

  constructor(
    runId: string,
    private readonly issuer: string,
  ) {
    this.tag = runId
      .slice(-4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x");
  }

  fresh(): FreshSubject {
    const n = ++this.n;
    const rand = randomBytes(3).toString("hex");
    const email = `idc-${this.tag}-${n}${rand}@example.com`;
    const sessionId = `idc-${this.tag}-s${n}${rand}`;
    const user: SubId = { format: "email", email };
    const session: SubId = { format: "opaque", id: sessionId };
    return {
      email,
      sessionId,
      user,
      session,
      issSub: { format: "iss_sub", iss: this.issuer, sub: email },
      complex: { format: "complex", user, session },
    };
  }
}
