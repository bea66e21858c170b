/**
 * Every bound the reference target puts on what a client sends or makes it keep
 * (design: "treat everything as hostile", applied to the target too). Numbers that the
 * ServiceProviderConfig advertises come from here, so the document never disagrees with
 * the behaviour.
 */
export const LIMITS = {
  /** Request bodies above this answer 413 (SCIM error). */
  maxBodyBytes: 1024 * 1024,
  /** Users kept in memory; one more answers 507 (SCIM error, no scimType). */
  maxUsers: 10_000,
  /** Groups kept in memory; one more answers 507. */
  maxGroups: 10_000,
  /** Longest string attribute value accepted, in characters. */
  maxStringLength: 1024,
  /** Most emails one user may carry. */
  maxEmails: 20,
  /** Largest enterprise extension object kept, serialized. */
  maxExtensionBytes: 8 * 1024,
  /** Longest filter expression, in characters, and its deepest nesting. */
  maxFilterLength: 4096,
  maxFilterDepth: 32,
  /** Most operations in one PatchOp. */
  maxPatchOperations: 1000,
  /** Page sizes of list responses (RFC 7644 §3.4.2.4, RFC 9865). */
  defaultPageSize: 50,
  maxPageSize: 100,
  /** Seconds a pagination cursor stays valid (advertised as cursorTimeout). */
  cursorTimeoutSeconds: 3600,
  /** Access-token lifetime in seconds (expires_in). */
  tokenLifetimeSeconds: 600,
  /** Live access tokens kept; the oldest is dropped beyond it. */
  maxLiveTokens: 10_000,
  /** Requests one access token may make in any one-second window. */
  ratePerSecond: 400,
  /** Client assertions: clock skew tolerated, furthest future iat, longest lifetime accepted. */
  assertionSkewSeconds: 30,
  assertionMaxIatFutureSeconds: 300,
  assertionMaxLifetimeSeconds: 3600,
  /** Remembered assertion jtis; beyond it (after dropping expired ones) the endpoint answers 503. */
  maxRememberedJtis: 100_000,
  /** userNames a `deleted-username-reserved` target keeps reserved (oldest forgotten first). */
  maxReservedUserNames: 10_000,
} as const;
