import type { FaultSet } from "../faults.js";
import type { Receiver } from "../service/receiver.js";
import { TransmitterKeys } from "../set/transmitter-keys.js";
import { retry } from "./backoff.js";
import { discover, readJwks } from "./discovery.js";
import { guessedConfig } from "./fault-guessed-config.js";
import { Poller } from "./poller.js";
import { createStream, newState, requestVerification } from "./setup.js";
import type { TrustCell } from "./trust.js";

export interface ConnectorOptions {
  /** The Transmitter's issuer this Receiver is configured to trust. */
  readonly issuer: string;
  /** The Receiver's Bearer token at the Transmitter. */
  readonly token: string;
  readonly pushUrl: string;
  /** The Authorization value the Receiver asks the Transmitter to push with. */
  readonly pushAuthorization: string;
  readonly trust: TrustCell;
  readonly receiver: Receiver;
  readonly faults: FaultSet;
}

/**
 * The Receiver's side of the connection (SSF 1.0 §7, §8): discovery and the first key read,
 * retried with a bounded backoff until the Transmitter answers; then the stream, created once;
 * a verification request; and for poll delivery the polling loop. Runs in the background from
 * `start()` until `close()`.
 */
export class Connector {
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly o: ConnectorOptions) {}

  start(): void {
    // Stryker disable next-line ArrowFunction: a closed Receiver's connection ends with the abort; nothing is left to report
    this.running = this.run().catch(() => undefined);
  }

  private async run(): Promise<void> {
    const { o } = this;
    const signal = this.abort.signal;
    const setup = { ...o, signal };
    // stream-endpoint-guessed: retried like discovery, as the Transmitter may not listen yet.
    const early = o.faults.has("stream-endpoint-guessed")
      ? await retry(() => createStream(guessedConfig(o.issuer), setup), signal)
      : undefined;
    const config = await retry(() => discover(o.issuer, signal), signal);
    const keys = new TransmitterKeys(() => readJwks(config.jwksUri, signal), o.faults);
    // Stryker disable next-line ArrowFunction: equivalent: the key cache starts out of date, so the first SET reads jwks_uri anyway
    await retry(() => keys.load(), signal);
    o.trust.set({ keys, critical: config.criticalMembers });
    const stream = early ?? (await retry(() => createStream(config, setup), signal));
    const state = newState();
    o.receiver.expectState(state);
    await requestVerification(config, stream.streamId, state, setup).catch(() => undefined);
    // Stryker disable next-line ConditionalExpression: equivalent: a push stream has no poll URL, and a Poller without one fails before it sends anything (the `false` variant, killed by the poll variant, goes with it)
    if (stream.pollUrl !== undefined) {
      await new Poller({ url: stream.pollUrl, token: o.token, receiver: o.receiver, faults: o.faults }).run(
        signal,
      );
    }
  }

  /** Stops every retry, poll and call under way. */
  // Stryker disable next-line BlockStatement: server plumbing: shutting the connection down after the run
  async close(): Promise<void> {
    this.abort.abort();
    await this.running;
  }
}
