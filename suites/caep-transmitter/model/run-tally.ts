import type { DeliveryModel, LifecycleId, Violation } from "./delivery-model.js";

/** A command sequence as a finding shows it (fast-check's replay comment left out). */
export const sequenceText = (cmds: unknown): string =>
  String(cmds)
    .replace(/\s*\/\*replayPath=.*?\*\/\s*$/, "")
    .trim();

/**
 * What the lifecycle runs of one check saw, over every sequence: the violations of each (by
 * its text, so the shrunk counterexample can be found again), the first sequence that broke
 * each rule, the rules put to the test, and what the texts leave to the Transmitter.
 */
export class RunTally {
  readonly bySequence = new Map<string, Violation[]>();
  readonly first = new Map<LifecycleId, { readonly seq: string; readonly v: Violation }>();
  readonly exercised = new Set<LifecycleId>();
  readonly allowed = new Map<string, { arrived: number; dropped: number }>();
  readonly verifications = { requested: 0, arrived: 0 };
  others = 0;
  runs = 0;

  /** Adds one finished run (its model after `finish`); returns its violations. */
  add(cmds: unknown, model: DeliveryModel, violations: Violation[]): Violation[] {
    this.runs++;
    const seq = sequenceText(cmds);
    this.bySequence.set(seq, violations);
    for (const v of violations) if (!this.first.has(v.id)) this.first.set(v.id, { seq, v });
    for (const id of model.exercised) this.exercised.add(id);
    for (const [why, n] of model.allowed) {
      const row = this.allowed.get(why) ?? { arrived: 0, dropped: 0 };
      row.arrived += n.arrived;
      row.dropped += n.dropped;
      this.allowed.set(why, row);
    }
    this.verifications.requested += model.verifications.requested;
    this.verifications.arrived += model.verifications.arrived;
    this.others += model.others;
    return violations;
  }
}
