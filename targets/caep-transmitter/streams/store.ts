import { randomBytes } from "node:crypto";
import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import type { ReceiverAccount } from "../service/receivers.js";
import { Stream, type ReceiverSupplied } from "./stream.js";

/** How a request uses a stream: reading it, or changing it (the ownership faults differ). */
export type Access = "read" | "write";

/**
 * Every stream of the Transmitter. A Receiver sees and changes only its own: another
 * Receiver's stream is answered as unknown (SSF 1.0 §8: 404, "no Event Stream with the given
 * stream_id for this Event Receiver").
 */
export class StreamStore {
  private readonly streams = new Map<string, Stream>();

  constructor(private readonly faults: FaultSet) {}

  /** A new stream of `owner`, or undefined when it already holds the most it may. */
  create(owner: ReceiverAccount, config: ReceiverSupplied): Stream | undefined {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a bound of this Transmitter (SSF states none); no run creates this many streams
    if (this.of(owner).length >= LIMITS.maxStreamsPerReceiver) return undefined;
    // SSF 1.0 §8.1.1: unreserved characters (RFC 3986 §2.3).
    const stream = new Stream(randomBytes(16).toString("hex"), owner, config, this.faults);
    this.streams.set(stream.id, stream);
    return stream;
  }

  /** The stream `caller` may use this way, or undefined. */
  find(caller: ReceiverAccount, id: string, access: Access): Stream | undefined {
    const stream = this.streams.get(id);
    if (stream === undefined) return undefined;
    // Stryker disable next-line ConditionalExpression: equivalent: a deleted stream has left the map (delete below) unless the delete-soft fault keeps it
    if (stream.deleted && !(access === "read" && this.faults.has("delete-soft"))) return undefined;
    if (stream.owner.id === caller.id) return stream;
    if (access === "read" && this.faults.has("read-no-owner-check")) return stream;
    if (access === "write" && this.faults.has("write-no-owner-check")) return stream;
    return undefined;
  }

  /** The live streams of `owner` (every Receiver's under the `list-all-receivers` fault), oldest first. */
  of(owner: ReceiverAccount): Stream[] {
    return this.live().filter((s) => s.owner.id === owner.id || this.faults.has("list-all-receivers"));
  }

  /** Every live stream. */
  live(): Stream[] {
    // Stryker disable next-line MethodExpression: equivalent: a deleted stream has left the map unless the delete-soft fault keeps it
    return [...this.streams.values()].filter((s) => !s.deleted);
  }

  /** Deletes a stream: its delivery stops and its SETs are dropped. */
  async delete(stream: Stream): Promise<void> {
    // Stryker disable next-line BooleanLiteral: equivalent without the delete-soft fault: the stream leaves the map and its delivery is closed
    stream.deleted = true;
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent without the delete-soft fault (true), or to find's deleted test (false)
    if (!this.faults.has("delete-soft")) this.streams.delete(stream.id);
    await stream.close();
  }

  /** Stops every stream's delivery (the Transmitter closes). */
  // Stryker disable next-line all: plumbing: the Transmitter shutting down
  async close(): Promise<void> {
    // Stryker disable next-line all: plumbing: the Transmitter shutting down
    await Promise.all([...this.streams.values()].map((s) => s.close()));
  }
}
