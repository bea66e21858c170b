/**
 * Every bound and timing of the account-commands reference target (design: "treat
 * everything as hostile", applied to the target too). specs/002 area A fixes none of these
 * numbers; they are the reference target's own choices.
 */
export const LIMITS = {
  /** Command request bodies above this answer 413. */
  maxBodyBytes: 64 * 1024,
  /** Clock skew tolerated on exp and iat, in seconds. */
  skewSeconds: 30,
  /** Longest Command Token lifetime accepted (exp minus now), in seconds. */
  maxTokenLifetimeSeconds: 3600,
  /** Longest jti, sub, aud_sub, tenant, command and other identifier claims, in characters. */
  maxIdentifierLength: 256,
  /** Remembered (iss, jti) pairs; beyond it (after dropping expired ones) commands answer 503. */
  maxRememberedJtis: 100_000,
  /** Most account claims one token may carry, and their largest serialized size in bytes. */
  maxAccountClaims: 64,
  maxAccountClaimsBytes: 16 * 1024,
  /** Largest metadata claim kept, serialized, in bytes. */
  maxMetadataBytes: 16 * 1024,
  /** Accounts kept in memory; one more answers 507. */
  maxAccounts: 10_000,
  /** (iss, tenant) pairs whose OP metadata is kept; one more answers 507. */
  maxTenants: 1_000,
  /** Sessions kept per account; more drops the oldest. */
  maxSessionsPerAccount: 10,
  /** Milliseconds an asynchronous command stays pending before it completes. */
  asyncCompletionMs: 150,
  /** Notification Token lifetime in seconds, and the delivery timeout in milliseconds. */
  notificationLifetimeSeconds: 120,
  notificationTimeoutMs: 5_000,
  /** Milliseconds between two stream events, so a client can drop a stream mid-way. */
  streamEventPauseMs: 5,
  /** Streams remembered for resumption, how long, and their largest total size in bytes. */
  maxRememberedStreams: 50,
  streamMemoryMs: 10 * 60 * 1000,
  maxRememberedStreamBytes: 32 * 1024 * 1024,
} as const;
