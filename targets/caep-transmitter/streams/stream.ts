import { Outbox, type StreamStatus } from "../delivery/outbox.js";
import { PushWorker } from "../delivery/push-worker.js";
import type { FaultSet } from "../faults.js";
import type { ReceiverAccount } from "../service/receivers.js";
import { EVENTS_SUPPORTED, POLL_METHOD, PUSH_METHOD } from "../ssf.js";
import { SubjectSet } from "./subjects.js";

/** A stream's delivery (SSF 1.0 §6.1): push to the Receiver's URL, or poll at this Transmitter's. */
export type Delivery =
  | {
      readonly method: typeof PUSH_METHOD;
      readonly endpointUrl: string;
      readonly authorizationHeader?: string;
    }
  | { readonly method: typeof POLL_METHOD };

/** The Receiver-Supplied properties of a stream (SSF 1.0 §8.1.1). */
export interface ReceiverSupplied {
  readonly delivery: Delivery;
  readonly eventsRequested?: readonly string[];
  readonly description?: string;
}

/**
 * events_delivered (SSF 1.0 §8.1.1): the requested events this Transmitter supports, in the
 * order it lists them; none when none were requested.
 */
export function eventsDelivered(requested: readonly string[] | undefined, faults: FaultSet): string[] {
  if (faults.has("events-delivered-all-supported")) return [...EVENTS_SUPPORTED];
  // Stryker disable next-line ConditionalExpression: every stream the run creates names events_requested
  if (requested === undefined) return [];
  return EVENTS_SUPPORTED.filter((uri) => requested.includes(uri));
}

/**
 * One event stream: its owner (the Receiver whose token created it), configuration, status,
 * subjects, and the outbox its SETs wait in. A push stream runs a worker that pushes them.
 */
export class Stream {
  config: ReceiverSupplied;
  eventsDelivered: string[];
  status: StreamStatus = "enabled";
  reason: string | undefined;
  deleted = false;
  readonly subjects = new SubjectSet();
  readonly outbox: Outbox;
  private worker: PushWorker | undefined;

  constructor(
    readonly id: string,
    readonly owner: ReceiverAccount,
    config: ReceiverSupplied,
    private readonly faults: FaultSet,
  ) {
    this.config = config;
    this.eventsDelivered = eventsDelivered(config.eventsRequested, faults);
    this.outbox = new Outbox(() => this.status, faults);
    this.startDelivery();
  }

  private startDelivery(): void {
    const d = this.config.delivery;
    if (d.method !== PUSH_METHOD) return;
    this.worker = new PushWorker(
      this.outbox,
      () => {
        // Read at each attempt: an update of endpoint_url or authorization_header applies to the next push.
        const now = this.config.delivery;
        // Stryker disable next-line ConditionalExpression,EqualityOperator: no requirement probes a change of delivery method (the worker stops with it)
        return now.method === PUSH_METHOD ? now : d;
      },
      this.faults,
    );
  }

  /** Applies new Receiver-Supplied properties (update or replace); a change of method moves the SETs over. */
  async reconfigure(config: ReceiverSupplied): Promise<void> {
    const before = this.config.delivery.method;
    this.config = config;
    this.eventsDelivered = eventsDelivered(config.eventsRequested, this.faults);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: no requirement probes a change of delivery method by update or replace
    if (config.delivery.method === before) return;
    await this.worker?.stop();
    this.worker = undefined;
    this.outbox.unhandAll();
    this.startDelivery();
  }

  setStatus(status: StreamStatus, reason: string | undefined): void {
    this.status = status;
    this.reason = reason;
    this.outbox.statusChanged();
  }

  /** The stream is deleted or the Transmitter closes: delivery stops, waiting SETs are dropped. */
  // Stryker disable next-line BlockStatement: plumbing: the stream's delivery stops (a deleted stream is no longer found either way)
  async close(): Promise<void> {
    this.outbox.close();
    await this.worker?.stop();
    this.worker = undefined;
  }
}
