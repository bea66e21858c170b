/**
 * Every bound and timing of the CAEP Transmitter reference target (design: "treat everything
 * as hostile", applied to the target too). The published texts fix none of these numbers;
 * they are this Transmitter's own choices.
 */
export const LIMITS = {
  /** Request bodies of stream management and the hook; larger ones answer 413, read bounded. */
  maxBodyBytes: 16 * 1024,
  /** Poll request bodies (they may acknowledge many jtis at once). */
  maxPollBodyBytes: 64 * 1024,
  /** Streams one Receiver may hold; creating more answers 403. */
  maxStreamsPerReceiver: 200,
  /** Subjects one stream may hold; adding more answers 403. */
  maxSubjectsPerStream: 1_000,
  /** A subject identifier's JSON, in characters. */
  maxSubjectChars: 2_048,
  /** Event type URIs of events_requested kept (the rest are ignored), and the longest URI or URL. */
  maxEventsRequested: 64,
  maxUriLength: 2_048,
  /** A description longer than this is truncated (SSF 1.0 §8.1.1 allows it). */
  maxDescriptionLength: 1_024,
  /** The verification `state` and a status `reason`, in characters. */
  maxStateLength: 1_024,
  /** SETs a stream holds (queued, held while paused, or handed out by poll and not acknowledged); the oldest go first. */
  maxQueuedPerStream: 1_000,
  /** Push (RFC 8935): one attempt's time bound, attempts per SET, and the pauses between them. */
  pushTimeoutMs: 5_000,
  pushMaxAttempts: 6,
  backoffMinMs: 250,
  backoffMaxMs: 4_000,
  /** The longest Retry-After honoured; a longer one is waited this long. */
  retryAfterMaxMs: 60_000,
  /** Bytes of a push answer read (for its RFC 8935 error); the rest is discarded. */
  maxPushAnswerBytes: 4_096,
  /** Poll (RFC 8936): most SETs in one answer, how long a long poll is held, most jtis acknowledged at once. */
  pollMaxBatch: 100,
  longPollMs: 3_000,
  maxAckJtis: 1_000,
  maxJtiLength: 256,
} as const;
