/**
 * Every bound and timing of the CAEP Receiver reference target (design: "treat everything as
 * hostile", applied to the target too). The published texts fix none of these numbers; they
 * are this Receiver's own choices.
 */
export const LIMITS = {
  /** Pushed bodies above this answer 413 (read bounded: never buffered past it). */
  maxBodyBytes: 64 * 1024,
  /** Seconds an `iat` may lie in the future (clock skew between Transmitter and Receiver). */
  skewSeconds: 60,
  /** Longest jti and identifier members accepted, in characters. */
  maxIdentifierLength: 512,
  /** Most events one SET may carry (SSF: it SHOULD carry one). */
  maxEventsPerSet: 16,
  /** Most members of a complex subject, identifiers of an aliases subject, addresses of ip-addresses. */
  maxSubjectMembers: 32,
  /** Processed jtis remembered, so a re-sent SET is answered but not processed twice; oldest dropped first. */
  maxRememberedJtis: 50_000,
  /** States of the Receiver's own verification requests remembered (a verification SET may echo any of them). */
  maxVerificationStates: 16,
  /** Sessions and users kept; the session hook answers 507 beyond. */
  maxSessions: 20_000,
  maxUsers: 20_000,
  /** Outbound calls to the Transmitter: time and response size. */
  outboundTimeoutMs: 5_000,
  maxResponseBytes: 512 * 1024,
  /** Backoff of discovery, set-up and polling retries: first and largest pause. */
  backoffMinMs: 50,
  backoffMaxMs: 1_000,
  /** A push that arrives before the Transmitter's keys are known waits at most this long for them. */
  readyWaitMs: 5_000,
  /** Keys published at jwks_uri: most kept, and how long a fetched set is trusted before it is read again. */
  maxKeys: 32,
  keysMaxAgeMs: 5 * 60 * 1000,
  /** Refetches of jwks_uri for an unknown kid: at most one per kid within the window, and a global budget. */
  kidRefetchWindowMs: 30_000,
  refetchBudget: 10,
  refetchBudgetWindowMs: 60_000,
  /** Unknown kids remembered for the per-kid window. */
  maxRememberedKids: 1_000,
  /** Poll requests: maxEvents asked for, and how long one long poll may be held. */
  pollMaxEvents: 25,
  pollTimeoutMs: 35_000,
} as const;
