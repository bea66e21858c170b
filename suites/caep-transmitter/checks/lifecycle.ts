import fc from "fast-check";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { isCheckControl } from "../../../src/engine/check-runner.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { StreamClient } from "../client.js";
import type { CaepTransmitterProfile, DeliveryMethod } from "../profile.js";
import { mark } from "../sets.js";
import {
  DeliveryModel,
  LIFECYCLE_IDS,
  type DefaultSubjects,
  type Violation,
} from "../model/delivery-model.js";
import { commandArbitrary, scenario, type LifecycleCommand } from "../model/lifecycle-commands.js";
import { markedEvent } from "../model/markers.js";
import { RunTally, sequenceText } from "../model/run-tally.js";
import { SHORT_POLL_MS, StreamDriver } from "../model/stream-driver.js";

type Ctx = CheckContext<CaepTransmitterProfile>;

/** Subjects each run names (fresh ones per run, so runs do not see each other's events). */
const SLOTS = 3;
/** The generated runs' share of the check's time; runs not started by then are left out (and said). */
const BUDGET_MS = 30_000;
/** After this many held returnImmediately polls no further generated run starts. */
const HELD_POLLS = 3;

/**
 * The methods the model drives: each one tested (the profile's delivery list, else what
 * discovery offers), poll first. Push and poll hold, release and drop SETs by different paths
 * of a Transmitter, and the lifecycle rules bind both.
 */
async function methodsOf(c: Ctx, k: StreamClient): Promise<DeliveryMethod[]> {
  const methods = await k.methods();
  const out = (["poll", "push"] as const).filter((m) => methods.includes(m));
  if (out.length > 0) return out;
  return c.skip(
    "not offered: the profile names no delivery method and the discovery document offers neither urn:ietf:rfc:8935 nor urn:ietf:rfc:8936",
    "not-offered",
  );
}

const defaultSubjectsOf = (v: unknown): DefaultSubjects => (v === "ALL" || v === "NONE" ? v : undefined);

/**
 * SSF 1.0 §8.1.2 and §8.1.3, RFC 8936 §2.1 and RFC 8935 §2.2, model-based: fast-check command
 * sequences (status changes, subjects added and removed, events triggered through the profile's
 * hook, polls with and without acknowledgement or reads of the pushes, verification requests)
 * run on one stream of each delivery method tested (poll, then push) against the model of what
 * must be delivered (model/delivery-model.ts). A fixed sequence runs first so every rule is
 * exercised whatever the seed; each run ends by enabling and draining the stream. A failure names
 * the seed and the shrunk sequence; the profile's options.seed replays it.
 */
export const lifecycleChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.lifecycle-model",
    title:
      "over generated sequences of status changes, subject changes, triggered events, polls (acknowledged or not) or reads of the pushes, and verifications, a poll stream and a push stream each deliver only events about its subjects, nothing while paused or disabled, held events once enabled again, nothing raised while disabled, and every owed event once, never again after acknowledgement",
    requirements: [...LIFECYCLE_IDS],
    timeoutMs: 180_000,
    async run(c) {
      const k = new StreamClient(c);
      if (c.profile.hooks.trigger === undefined)
        c.skip(
          "needs hook: the profile gives no suites.caep-transmitter.hooks.trigger (a POST that makes the Transmitter emit an event)",
          "needs-hook",
        );
      const methods = await methodsOf(c, k);
      for (const [i, method] of methods.entries()) await modelOn(c, k, method, i === 0);
    },
  }),
];

/**
 * One model-based exploration on a new stream of `method`. What keeps the exploration from
 * being judged skips the check when this is the first method; for a later one it is said in a
 * note and that method is left, so the verdicts of the first stand.
 */
async function modelOn(c: Ctx, k: StreamClient, method: DeliveryMethod, first: boolean): Promise<void> {
  const skip = (reason: string, kind: "dependency"): void => {
    if (first) c.skip(reason, kind);
    c.note(`${method} stream not judged: ${reason}`);
    throw new LeaveMethod();
  };
  const s = await k.open(method, { label: `lifecycle ${method} stream` });
  try {
    const given = (await k.discovery()).doc.default_subjects;
    const ds = defaultSubjectsOf(given);
    const event = markedEvent(s.delivered);
    if (!s.delivered.includes(event.uri))
      skip(
        "the lifecycle stream delivers no CAEP event type (its events_delivered; see CAEPT-STREAM-CREATE)",
        "dependency",
      );
    const on = await k.setStatus(s.id, "enabled", { label: "lifecycle: status enabled" });
    if (on.status < 200 || on.status > 299)
      skip(
        `the Transmitter did not enable the stream (answered ${on.status}; see CAEPT-STATUS)`,
        "dependency",
      );
    const barrier = await k.subscribe(s, "lifecycle: add the barrier subject");
    const driver = new StreamDriver(k, s, event, barrier, await mark(k, s));
    const push = method === "push";

    // An empty run first: the barrier must come through, or nothing here can be judged.
    const warm = new DeliveryModel(SLOTS, ds, push);
    driver.begin(warm, []);
    await driver.drain();
    if (warm.triggers.some((t) => t.jtis.length === 0))
      skip(
        `an event about a subject in the enabled stream did not arrive within ${c.profile.eventTimeoutMs} ms (see CAEPT-EVENTS-DELIVERED): the lifecycle cannot be judged`,
        "dependency",
      );

    const tally = new RunTally();
    /** One sequence on fresh subjects, the stream enabled and drained after it; its violations. */
    const runSequence = async (cmds: Iterable<LifecycleCommand>): Promise<Violation[]> => {
      const model = new DeliveryModel(SLOTS, ds, push);
      driver.begin(
        model,
        Array.from({ length: SLOTS }, () => k.subjects.fresh()),
      );
      await fc.asyncModelRun(() => ({ model, real: driver }), cmds);
      await driver.drain();
      return tally.add(cmds, model, model.finish(driver.lastAnswer));
    };

    // The fixed scenario first (every rule exercised, whatever the seed), then generated
    // sequences, shrunk on failure.
    const fixed = scenario(push);
    await runSequence(fixed);
    // What the target's answers or the harness threw that is no violation: a skip or stop
    // (control) ends every later run at once and is rethrown; anything else is a harness
    // fault, rethrown after, never shrunk as if it were the Transmitter's counterexample.
    let control: unknown;
    let fatal: { readonly error: unknown } | undefined;
    let held = false;
    const property = fc.asyncProperty(
      fc.commands([commandArbitrary(SLOTS, push)], {
        maxCommands: c.profile.lifecycle.maxCommands,
        size: "max",
      }),
      async (cmds) => {
        if (control !== undefined) throw control;
        // A Transmitter that holds returnImmediately polls makes every read slow: the fixed
        // scenario and what ran so far stand (CAEPT-POLL-RETURN-IMMEDIATELY judges the hold).
        if (fatal !== undefined || driver.heldPolls >= HELD_POLLS) return (held = true);
        try {
          return (await runSequence(cmds)).length === 0;
        } catch (error) {
          if (!isCheckControl(error)) {
            fatal = { error };
            return true;
          }
          control = error;
          throw error;
        }
      },
    );
    const out = await fc.check(property, {
      seed: c.seed,
      numRuns: c.profile.lifecycle.runs,
      interruptAfterTimeLimit: BUDGET_MS,
      markInterruptAsFailure: false,
    });
    rethrowControl(out);
    if (fatal !== undefined) throw fatal.error;

    const shrunk = out.failed && out.counterexample ? sequenceText(out.counterexample[0]) : undefined;
    const shrunkViolations = shrunk !== undefined ? (tally.bySequence.get(shrunk) ?? []) : [];
    const replay = `seed ${c.seed}: run again with --seed ${c.seed} (options.seed) to replay it`;
    const fixedText = sequenceText(fixed);
    for (const id of LIFECYCLE_IDS) {
      const mine = shrunkViolations.find((v) => v.id === id);
      const hit = mine !== undefined && shrunk !== undefined ? { seq: shrunk, v: mine } : tally.first.get(id);
      if (hit !== undefined) {
        const which = mine
          ? "the shrunk counterexample"
          : hit.seq === fixedText
            ? "the fixed scenario"
            : "a generated sequence";
        c.check(id, false, {
          message: `${hit.v.message} (on the ${method} stream, after the commands ${hit.seq || "(none)"}, then enable and drain)`,
          expected: hit.v.expected,
          actual: `${hit.v.actual} (${which}; ${replay})`,
          ...(hit.v.res !== undefined ? { res: hit.v.res } : {}),
        });
        continue;
      }
      if (tally.exercised.has(id)) c.check(id, true);
      else if (id === "CAEPT-LIFECYCLE-SUBJECTS" && ds !== "NONE")
        c.skipOnly(
          id,
          `not offered: discovery gives default_subjects ${given === undefined ? "absent" : ds === undefined ? `${JSON.stringify(given).slice(0, 40)} (neither ALL nor NONE: see CAEPT-DISC-OPTIONAL-MEMBERS)` : ds}, so a subject never added may be in the stream, and events about a removed one are allowed (SSF §9.3): nothing to judge`,
          "not-offered",
        );
      else c.skipOnly(id, `not exercised by the sequences run (${tally.runs}; seed ${c.seed})`, "other");
    }

    c.note(
      `${tally.runs} sequence(s) run on one ${method} stream (the fixed scenario, then generated ones, shrinking included), seed ${c.seed}; events of type ${event.uri.slice(event.uri.lastIndexOf("/") + 1)}${driver.unmarked > 0 ? `; ${driver.unmarked} SET(s) carried no marker and were matched by subject, in order` : ""}`,
    );
    if (out.interrupted)
      c.note(
        `${method} stream: the exploration stopped after ${BUDGET_MS} ms: ${out.numRuns} of ${c.profile.lifecycle.runs} generated runs judged`,
      );
    if (held)
      c.note(
        `returnImmediately polls were held (${driver.heldPolls} not answered within ${SHORT_POLL_MS} ms; see CAEPT-POLL-RETURN-IMMEDIATELY): the generated runs stopped there`,
      );
    for (const [why, n] of tally.allowed)
      c.note(
        `${method} stream, left to the Transmitter, ${why}: delivered ${n.arrived} time(s), not delivered ${n.dropped} time(s)`,
      );
    c.note(
      `${method} stream: verification requests accepted ${tally.verifications.requested}, verification SETs seen ${tally.verifications.arrived}${driver.verifyRefused.length > 0 ? `; refused with ${driver.verifyRefused.join(", ")}` : ""}; other SETs (neither a triggered event nor a verification) ${tally.others}`,
    );
  } catch (e) {
    if (!(e instanceof LeaveMethod)) throw e;
  } finally {
    await k.close(s);
  }
}

/** Thrown to leave a later method's exploration (see modelOn). */
class LeaveMethod extends Error {}
