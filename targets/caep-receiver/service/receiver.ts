import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { invalidKey, SetError } from "../set/errors.js";
import { verifySet, type VerifiedSet } from "../set/verify.js";
import type { TrustCell } from "../stream/trust.js";
import type { Directory } from "./directory.js";
import { applyEvents } from "./effects.js";
import { actBeforeVerify } from "./fault-act-early.js";
import { JtiMemory } from "./jti-memory.js";

export interface ReceiverOptions {
  readonly issuer: string;
  /** This Receiver's audience (its URL, known once it listens). */
  readonly audience: () => string;
  readonly trust: TrustCell;
  readonly directory: Directory;
  readonly faults: FaultSet;
  readonly nowSeconds?: () => number;
}

/**
 * What push and poll share: a SET is validated, then acted on once (its jti remembered), and
 * only then acknowledged (202 or `ack`). A SET sent again is answered as if new but not acted
 * on twice (RFC 8935 §2.2). Throws a SetError for a refused SET.
 */
export class Receiver {
  private readonly jtis = new JtiMemory();
  private readonly states = new Set<string>();

  constructor(private readonly o: ReceiverOptions) {}

  /** A state this Receiver sent in a verification request: a verification SET may carry it. */
  expectState(state: string): void {
    this.states.add(state);
    // Stryker disable all: memory bound: the oldest request's state is forgotten first
    if (this.states.size > LIMITS.maxVerificationStates)
      this.states.delete(this.states.values().next().value ?? "");
    // Stryker restore all
  }

  /**
   * Receives one SET: "processed" when it was acted on, "duplicate" when its jti was already
   * processed (it is answered as accepted all the same).
   */
  async receive(token: string): Promise<"processed" | "duplicate"> {
    const { faults } = this.o;
    const trust = await this.o.trust.get(LIMITS.readyWaitMs);
    // Stryker disable next-line ConditionalExpression: unreachable in a run: SETs come after the stream exists, and the keys are read before the stream is created
    if (trust === undefined) throw invalidKey("the Transmitter's keys are not known yet");
    const acting = { directory: this.o.directory, issuer: this.o.issuer, critical: trust.critical, faults };
    if (faults.has("acts-before-verify")) actBeforeVerify(token, acting);
    const set = await verifySet(token, {
      issuer: this.o.issuer,
      audience: this.o.audience(),
      keys: trust.keys,
      faults,
      // Stryker disable next-line ArrowFunction: test plumbing: a frozen clock for unit tests
      nowSeconds: this.o.nowSeconds ?? (() => Math.floor(Date.now() / 1000)),
    });
    this.checkState(set.events);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: acting once on a re-sent SET is this Receiver's design, which no text requires (CAEPR-DUPLICATE-JTI asks only that it is answered as if new); its effects are idempotent, and the block's throw is the duplicate-jti-409 fault
    if (set.jti !== undefined && this.jtis.has(set.jti)) {
      if (faults.has("duplicate-jti-409"))
        throw new SetError("invalid_request", "this jti was already received", 409);
      // Stryker disable next-line StringLiteral: fault machinery: the answer is read only under the poll-duplicates-silent and poll-duplicate-reported faults
      return "duplicate";
    }
    applyEvents(set, acting);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: acting once on a re-sent SET is this Receiver's design (see above); jti is undefined only under the jti-optional fault
    if (set.jti !== undefined) this.jtis.remember(set.jti);
    // Stryker disable next-line StringLiteral: fault machinery: the answer is read only under the poll-duplicates-silent and poll-duplicate-reported faults
    return "processed";
  }

  /**
   * SSF 1.0 §8.1.4.1: a verification event's state must be one this Receiver asked for (an
   * unexpected one SHOULD be answered invalid_state); without state it is the Transmitter's
   * own verification, which is fine.
   */
  private checkState(events: VerifiedSet["events"]): void {
    for (const e of events) {
      const state = e.claims.state;
      if (e.name === "verification" && typeof state === "string" && !this.states.has(state)) {
        throw new SetError("invalid_state", "the verification event's state is not one this Receiver sent");
      }
    }
  }
}
