/**
 * Every bound the federation reference target puts on what a client sends or makes it hold
 * (design: "treat everything as hostile", applied to the target too). specs/001 Limits leaves
 * the numbers to the deployment; these are this target's choices, and the demo profile reads
 * the two upper limits from the target's env so the profile never disagrees with the behaviour.
 */
export const LIMITS = {
  /** Extended list: entries per page without `limit`, and the most any page holds (specs/001 Limits 1). */
  extendedListDefault: 100,
  extendedListUpper: 500,
  /** Collection: without `limit` the upper limit applies (specs/001 Endpoints: Entity collection, limit). */
  collectionUpper: 100,
  /** Query or form parameters of one request, values of one repeated name, characters of one value. */
  maxParameters: 200,
  maxValuesPerName: 50,
  maxValueChars: 2048,
  /** Longest `from` cursor accepted; longer ones cannot be one this target issued. */
  maxCursorChars: 1024,
  /** Longest `locale` tag. */
  maxLocaleChars: 64,
  /** Request bodies (form POSTs, the change hook) above this answer 413. */
  maxBodyBytes: 64 * 1024,
  /** Generated members (`members` start option) and members in all (the hook adds no more beyond it). */
  maxGeneratedMembers: 1_000_000,
  maxEntities: 1_100_000,
  /** Longest Entity Identifier path segment the hook accepts for a new subordinate. */
  maxSegmentChars: 64,
  /** Derived signing keys kept imported; the oldest are dropped (they can be derived again). */
  keyCacheSize: 4096,
  /** Lifetimes, in seconds: statements, events statements, resolve responses. */
  statementLifetime: 86_400,
  eventsLifetime: 3600,
  /** Client assertions (private_key_jwt): clock skew tolerated, longest lifetime, jtis remembered. */
  assertionSkewSeconds: 30,
  assertionMaxLifetimeSeconds: 600,
  maxRememberedJtis: 100_000,
  /** Walk snapshots kept by the `xl-snapshot-cursor` fault (a realistic design, bounded like one). */
  maxSnapshots: 32,
} as const;
