import type { QueuedSet } from "./outbox.js";

/**
 * The `enable-replays-delivered` fault's event log: the SETs a stream delivered (the last
 * hundred), put back in its queue when the stream is enabled again, as a Transmitter that
 * rebuilds the queue from its event log does.
 */
export class ReplayLog {
  private sets: QueuedSet[] = [];

  record(set: QueuedSet): void {
    this.sets = [...this.sets, set].slice(-100);
  }

  /** The logged SETs before `queue`; the log starts again empty. */
  replayBefore(queue: QueuedSet[]): QueuedSet[] {
    const out = [...this.sets, ...queue];
    this.sets = [];
    return out;
  }
}
