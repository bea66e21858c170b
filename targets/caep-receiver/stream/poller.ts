import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { publicError, type PublicError } from "../service/public-error.js";
import type { Receiver } from "../service/receiver.js";
import { invalidRequest, SetError } from "../set/errors.js";
import { Backoff } from "./backoff.js";
import { ownErrCode } from "./fault-own-codes.js";
import { rejectPage } from "./fault-page-rejected.js";
import { hasNoHandler } from "./fault-unhandled-skipped.js";
import { callTransmitter } from "./outbound.js";

export interface PollerOptions {
  /** The poll endpoint_url the Transmitter returned at stream creation. */
  readonly url: string;
  readonly token: string;
  readonly receiver: Receiver;
  readonly faults: FaultSet;
}

type Sets = Record<string, unknown>;
type Reported = PublicError | { readonly err: string; readonly description: string };

/**
 * Poll delivery (RFC 8936 §2): a loop of long polls (`returnImmediately` false), each carrying
 * the outcome of the SETs the previous one returned: `ack` for those processed, `setErrs`
 * with an error code for those refused (never acknowledged). A SET is processed before its
 * acknowledgement is sent; outcomes stay pending until a poll carrying them is answered.
 * Failures pause with a bounded backoff; closing stops the loop.
 */
export class Poller {
  private acks = new Set<string>();
  private errs: Record<string, Reported> = {};
  /** Set by the poll-auth-on-challenge fault once the Transmitter answered 401. */
  private challenged: boolean | undefined;

  constructor(private readonly o: PollerOptions) {}

  async run(signal: AbortSignal): Promise<void> {
    const backoff = new Backoff();
    if (this.o.faults.has("poll-get-probe")) {
      await callTransmitter(this.o.url, {
        method: "GET",
        signal,
        authorization: `Bearer ${this.o.token}`,
      }).catch(() => undefined);
    }
    while (!signal.aborted) {
      const sets = await this.poll(signal).catch(() => undefined);
      // Stryker disable next-line ConditionalExpression,BlockStatement: a failed poll: the run's mock answers every poll 200 with sets, and no requirement has the Transmitter fail one (the `true` variant, killed, goes with them)
      if (sets === undefined) {
        await backoff.wait(signal).catch(() => undefined);
        continue;
      }
      backoff.reset();
      this.acks = this.o.faults.has("poll-acks-repeated") ? this.acks : new Set();
      this.errs = {};
      // Stryker disable next-line MethodExpression: equivalent: the run's mock honours maxEvents
      for (const [jti, token] of Object.entries(sets).slice(0, LIMITS.pollMaxEvents)) {
        await this.judge(jti, token);
      }
      if (this.o.faults.has("poll-page-rejected-whole")) rejectPage(this.acks, this.errs);
    }
  }

  /** One poll request; its SETs, or undefined when the Transmitter did not answer 200 with sets. */
  private async poll(signal: AbortSignal): Promise<Sets | undefined> {
    const authorized = this.o.faults.has("poll-auth-on-challenge") ? this.challenged === true : true;
    const body = {
      maxEvents: LIMITS.pollMaxEvents,
      // Stryker disable next-line BooleanLiteral: pacing: a poll answered at once settles the same SETs, only sooner and more often
      returnImmediately: false,
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: an empty ack list or setErrs object says nothing
      ...(this.acks.size > 0 ? { ack: [...this.acks] } : {}),
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: an empty ack list or setErrs object says nothing
      ...(Object.keys(this.errs).length > 0 ? { setErrs: this.errs } : {}),
    };
    const { status, json } = await callTransmitter(this.o.url, {
      body,
      signal,
      timeoutMs: LIMITS.pollTimeoutMs,
      ...(authorized ? { authorization: `Bearer ${this.o.token}` } : {}),
    });
    if (this.o.faults.has("poll-auth-on-challenge") && status === 401) this.challenged = true;
    // Stryker disable next-line OptionalChaining: equivalent: the TypeError without it is caught as a failed poll
    const sets = (json as { sets?: unknown } | undefined)?.sets;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a defence against a failed or malformed poll answer: the run's mock answers 200 with a sets object (the `true` variant, killed, goes with them)
    if (status !== 200 || typeof sets !== "object" || sets === null || Array.isArray(sets)) return undefined;
    return sets as Sets;
  }

  /** Processes one SET and records its outcome for the next poll. */
  private async judge(jti: string, token: unknown): Promise<void> {
    const { faults } = this.o;
    try {
      // Stryker disable next-line ConditionalExpression: a defence against a non-string SET: the run's mock hands out strings (verifySet refuses what is no JWS anyway)
      if (typeof token !== "string") throw invalidRequest("the SET is not a string");
      const done = await this.o.receiver.receive(token);
      if (faults.has("poll-unhandled-event-skipped") && hasNoHandler(token)) return;
      if (done === "duplicate" && faults.has("poll-duplicates-silent")) return;
      if (done === "duplicate" && faults.has("poll-duplicate-reported")) {
        this.errs[jti] = { err: "invalid_request", description: "this SET was already received" };
        return;
      }
      this.acks.add(jti);
    } catch (e) {
      if (faults.has("poll-foreign-iss-acked") && e instanceof SetError && e.err === "invalid_issuer") {
        this.acks.add(jti);
        return;
      }
      const error = publicError(e, faults);
      this.errs[jti] = faults.has("poll-own-err-codes")
        ? { err: ownErrCode(error.err), description: error.description }
        : error;
    }
  }
}
