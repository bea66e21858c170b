import fc from "fast-check";
import { defineCheck, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { tokenAttacks } from "../../../src/engine/token-attacks.js";
import { DELIVERY_ERROR_CODES, type CaepEventName } from "../../../src/protocols/caep.js";
import type { PollLogEntry, PollOutcome, PollTally } from "../../../mocks/transmitter/types.js";
import type { ObservedExchange } from "../../../src/engine/observer.js";
import { leakOf } from "../observers.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient, type StreamInfo } from "../receiver-client.js";
import type { FreshSubject } from "../subjects.js";

/**
 * Ways a generated SET is broken. Each keeps a readable jti: a Receiver reports an invalid SET
 * in setErrs under its jti (RFC 8936 §2.2), so a SET without one could not be reported at all.
 */
const BROKEN = ["flipped-signature", "wrong-aud", "wrong-iss"] as const;
type Broken = (typeof BROKEN)[number];

interface Item {
  readonly event: CaepEventName;
  readonly broken?: Broken;
  /** Handed out once more after its acknowledgement (a lost ack, as the Transmitter sees it). */
  readonly replay: boolean;
}
interface Batch {
  readonly items: readonly Item[];
  /** The mock Transmitter's own page size: it never hands out more per poll. */
  readonly maxPerPoll: number;
}

const MAX_BATCH = 8;
/** The property's share of the check's time; runs not started by then are left out (and said). */
const BUDGET_MS = 45_000;
/** Registered Security Event Token error codes: RFC 8935 §2.4, and SSF §8.1.4.1 invalid_state. */
const CODES: readonly string[] = [...DELIVERY_ERROR_CODES, "invalid_state"];
const IDS = [
  "CAEPR-POLL-ACK",
  "CAEPR-POLL-SETERRS",
  "CAEPR-POLL-NO-LOSS",
  "CAEPR-POLL-ACK-ONLY-DELIVERED",
  "CAEPR-POLL-DUPLICATE-JTI",
] as const;
type Id = (typeof IDS)[number];

/** Batches of SETs of the event types the stream delivers (a Receiver may decline the others). */
const batchArb = (events: readonly CaepEventName[]): fc.Arbitrary<Batch> =>
  fc.record({
    items: fc.array(
      fc.oneof(
        {
          weight: 2,
          arbitrary: fc.record({ event: fc.constantFrom(...events), replay: fc.boolean() }),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            event: fc.constantFrom(...events),
            broken: fc.constantFrom(...BROKEN),
            replay: fc.constant(false),
          }),
        },
      ),
      { minLength: 1, maxLength: MAX_BATCH },
    ),
    maxPerPoll: fc.integer({ min: 1, max: 4 }),
  });

const itemText = (it: Item, i: number): string =>
  `#${i + 1} ${it.broken ? `invalid (${it.broken})` : "valid"} ${it.event}${it.replay ? " (replayed after its ack)" : ""}`;
/** A batch as text, for a finding: what a reader needs to replay it by hand. */
export const batchText = (b: Batch): string =>
  `${b.items.length} SET(s), the mock handing out at most ${b.maxPerPoll} per poll: ${b.items.map(itemText).join("; ")}`;

const outcomeText = (o: PollOutcome): string =>
  `${o.kind === "acked" ? "acknowledged" : o.kind === "error" ? `reported in setErrs (err ${quote(o.err)})` : "no outcome"}; handed out ${o.deliveries} time(s), acknowledged ${o.acks} time(s), in setErrs ${o.errs} time(s)${o.unsolicited > 0 ? `, acknowledged or reported ${o.unsolicited} time(s) while not handed out` : ""}`;

interface Violation {
  readonly id: Id;
  readonly details: Details;
}

/** What a batch's outcomes break (RFC 8936 §2, §2.2; replays §2.4), per requirement. */
function judge(
  built: readonly { item: Item; jti: string }[],
  outcomes: Readonly<Record<string, PollOutcome>>,
  timeoutMs: number,
): Violation[] {
  const out: Violation[] = [];
  built.forEach(({ item, jti }, i) => {
    const o = outcomes[jti] ?? { kind: "pending", deliveries: 0, acks: 0, errs: 0, unsolicited: 0 };
    const what = itemText(item, i);
    const actual = outcomeText(o);
    // The mock replays a SET only once its first delivery is acknowledged (as after a lost ack):
    // what the Receiver does with the replay is CAEPR-POLL-DUPLICATE-JTI's (RFC 8936 §2.4: it
    // SHOULD acknowledge repeat SETs again), not the MUSTs of a first delivery.
    if (item.broken === undefined && item.replay && o.acks > 0 && o.deliveries > 1) {
      if (o.errs > 0 || o.kind === "pending")
        out.push({
          id: "CAEPR-POLL-DUPLICATE-JTI",
          details: {
            message: `${what}: handed out again after its acknowledgement (as after a lost ack), then ${o.errs > 0 ? "reported in setErrs" : "neither acknowledged nor reported"} within ${timeoutMs} ms`,
            expected: `${what}: acknowledged again, not reported in setErrs (RFC 8936 §2.4)`,
            actual,
            kind: o.errs > 0 ? "wrong-status" : "missing",
          },
        });
    } else if (item.broken === undefined) {
      // A SET never handed out has nothing to acknowledge yet: that is CAEPR-POLL-NO-LOSS's.
      if (o.deliveries > 0 && (o.acks === 0 || o.errs > 0))
        out.push({
          id: "CAEPR-POLL-ACK",
          details: {
            message: `${what}: ${o.errs > 0 ? "a valid SET reported in setErrs" : "a valid SET never acknowledged"}`,
            expected: `${what}: acknowledged (ack) and not reported in setErrs`,
            actual,
            kind: o.errs > 0 ? "wrong-status" : "missing",
          },
        });
    } else {
      const fits = o.errs > 0 && o.err !== undefined && CODES.includes(o.err);
      const described = typeof o.description === "string" && o.description.trim() !== "";
      if (o.acks > 0 || (o.deliveries > 0 && (!fits || !described)))
        out.push({
          id: "CAEPR-POLL-SETERRS",
          details: {
            message: `${what}: ${o.acks > 0 ? "an invalid SET acknowledged" : o.errs === 0 ? "an invalid SET not reported in setErrs" : !fits ? "reported with an err that is not a registered code" : "reported without a description"}`,
            expected: `${what}: reported in setErrs with err one of ${CODES.join(", ")} and a description, never acknowledged`,
            actual: `${actual}${o.errs > 0 ? `, description ${quote(o.description)}` : ""}`,
            kind: o.acks > 0 ? "accepted" : o.errs === 0 ? "missing" : !fits ? "wrong-code" : "missing",
          },
        });
    }
    if (o.kind === "pending" && !(item.replay && o.acks > 0))
      out.push({
        id: "CAEPR-POLL-NO-LOSS",
        details: {
          message: `${what}: ${o.deliveries === 0 ? "never polled for, though the Transmitter had it" : "handed out, then neither acknowledged nor reported"} within ${timeoutMs} ms`,
          expected: `${what}: acknowledged or reported in setErrs (a SET the Receiver did not settle is handed out again, and must not be lost)`,
          actual,
          kind: "missing",
        },
      });
    if (o.unsolicited > 0 || o.acks > o.deliveries)
      out.push({
        id: "CAEPR-POLL-ACK-ONLY-DELIVERED",
        details: {
          message: `${what}: ${o.unsolicited > 0 ? "acknowledged or reported while it was not handed out" : "acknowledged more often than it was handed out"}`,
          expected: `${what}: each acknowledgement answers one delivery of the SET`,
          actual,
          kind: "wrong-value",
        },
      });
  });
  return out;
}

/** Builds, queues and settles one batch; what it breaks. */
async function runBatch(
  k: ReceiverClient,
  s: StreamInfo,
  b: Batch,
  known: readonly FreshSubject[],
): Promise<{ violations: Violation[]; timeoutMs: number }> {
  const built: { item: Item; jti: string; token: string }[] = [];
  for (const [i, item] of b.items.entries()) {
    const who = known[i % Math.max(1, known.length)];
    const subject =
      who === undefined
        ? k.subjects.fresh().user
        : item.event.startsWith("session-")
          ? who.complex
          : who.user;
    const v = await k.set(item.event, { subject });
    let token = v.token;
    if (item.broken !== undefined) {
      const [a] = await tokenAttacks({ token: v.token, signingKey: k.signingKey, only: [item.broken] });
      if (a === undefined) throw new Error(`the token attack family gave no ${item.broken} variant`);
      token = a.token;
      k.hideSignature(token);
    }
    built.push({ item, jti: v.jti, token });
  }
  await k.mock.pollConfig(s.streamId, { maxPerPoll: b.maxPerPoll });
  await k.mock.enqueue(
    s.streamId,
    built.map(({ jti, token }) => ({ jti, token })),
  );
  const replays = built.filter((x) => x.item.replay).map((x) => x.jti);
  // After the enqueue: the mock replays each once its first delivery is acknowledged.
  if (replays.length > 0) await k.mock.pollConfig(s.streamId, { redeliverAcked: replays });
  const timeoutMs = k.c.profile.deliveryTimeoutMs + 50 * built.length;
  const got = await k.mock.outcomes(
    s.streamId,
    built.map((x) => x.jti),
    timeoutMs,
  );
  return { violations: judge(built, got.outcomes, timeoutMs), timeoutMs };
}

/** Subjects the batches' SETs name (a few, reused by every batch). */
const KNOWN_SUBJECTS = 3;

/**
 * The subjects the generated SETs name: users and sessions the Receiver knows (made by the
 * profile's session hook), so that whether it takes a SET never hangs on CAEPR-UNKNOWN-SUBJECT
 * (a SHOULD). Without the hook, subjects it does not know, once the run's control SET about one
 * was acknowledged (else the check skips: `unknownSubjectsOrSkip`).
 */
async function subjectsFor(k: ReceiverClient): Promise<FreshSubject[]> {
  const known: FreshSubject[] = [];
  for (let i = 0; i < KNOWN_SUBJECTS; i++) {
    const one = await k.session(`session hook (subject of the generated SETs, ${i + 1})`);
    if (one === undefined) break;
    known.push(one);
  }
  if (known.length === 0) await k.unknownSubjectsOrSkip();
  return known;
}

/** RFC 8936 poll delivery: the Receiver's acknowledgements and error reports, property-based. */
export const pollChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.poll-batches",
    title:
      "for generated batches of valid and invalid SETs, small pages and replays, every valid SET is acknowledged, every invalid one reported in setErrs with an RFC code and never acknowledged, none lost, no acknowledgement for what was not handed out, and a SET replayed after its acknowledgement acknowledged again (a SHOULD)",
    requirements: [...IDS],
    timeoutMs: 180_000,
    async run(c) {
      if (c.profile.delivery !== "poll")
        c.skip("not offered: push delivery (suites.caep-receiver.delivery: push)", "not-offered");
      const k = new ReceiverClient(c);
      const s = await k.stream();
      const events = await k.deliveredEvents();
      if (events.length === 0)
        c.skip(
          "the Receiver's stream delivers no CAEP event type (events_delivered is empty: it requested none the Transmitter supports, see CAEPR-STREAM-EVENTS)",
          "dependency",
        );
      const known = await subjectsFor(k);
      // Per batch (shrinking runs smaller ones) what it broke: the finding shows the batch fast-check ends with.
      const seen = new Map<string, Violation[]>();
      const first = new Map<Id, { batch: Batch; v: Violation }>();
      let runs = 0;
      /** Batches holding a valid SET the mock replays after its acknowledgement. */
      let withReplay = 0;
      // What the mock or the signing threw (a harness fault), or a skip or stop: it ends the
      // property at once (every later run passes without work) and is rethrown after, so it is
      // never shrunk as if it were the Receiver's counterexample.
      let fatal: { readonly error: unknown } | undefined;
      try {
        const property = fc.asyncProperty(batchArb(events), async (b) => {
          if (fatal !== undefined) return true;
          runs++;
          if (b.items.some((it) => it.replay && it.broken === undefined)) withReplay++;
          let violations: Violation[];
          try {
            violations = (await runBatch(k, s, b, known)).violations;
          } catch (error) {
            fatal = { error };
            return true;
          }
          seen.set(JSON.stringify(b), violations);
          for (const v of violations) if (!first.has(v.id)) first.set(v.id, { batch: b, v });
          return violations.length === 0;
        });
        const out = await fc.check(property, {
          seed: c.seed,
          numRuns: c.profile.pollRuns,
          interruptAfterTimeLimit: BUDGET_MS,
          markInterruptAsFailure: false,
        });
        if (fatal !== undefined) throw fatal.error;
        if (runs === 0) c.skip(`no batch was delivered within ${BUDGET_MS} ms`, "other");
        if (out.interrupted)
          c.note(
            `the property was stopped after ${BUDGET_MS} ms: ${out.numRuns} of ${c.profile.pollRuns} batches judged`,
          );
        const shrunk = out.failed && out.counterexample ? out.counterexample[0] : undefined;
        const shrunkViolations = shrunk ? (seen.get(JSON.stringify(shrunk)) ?? []) : [];
        const replay = `seed ${c.seed}, path ${out.counterexamplePath ?? "-"}: run again with --seed ${c.seed} (options.seed) to replay it`;
        for (const id of IDS) {
          const mine = shrunkViolations.find((v) => v.id === id);
          const hit = mine ? { batch: shrunk!, v: mine } : first.get(id);
          if (hit === undefined && id === "CAEPR-POLL-DUPLICATE-JTI" && withReplay === 0) {
            c.skipOnly(
              id,
              `no generated batch replayed a SET (${runs} batch(es); seed ${c.seed})`,
              "not-exercised",
            );
            continue;
          }
          if (hit === undefined) {
            c.check(id, true);
            continue;
          }
          c.check(id, false, {
            ...hit.v.details,
            message: `${hit.v.details.message ?? "not met"} (in the batch: ${batchText(hit.batch)})`,
            actual: `${hit.v.details.actual ?? ""} (${mine ? "shrunk counterexample" : "a generated batch"}; ${replay})`,
          });
        }
        c.note(`${runs} batch(es) delivered (shrinking included), seed ${c.seed}`);
      } finally {
        // The stream goes back to the mock's own page size for whatever polls next.
        await k.mock.pollConfig(s.streamId, { maxPerPoll: null }).catch(() => undefined);
      }
    },
  }),
];

/** A poll request as a finding names it: its number, method, authorization and what the mock saw. */
function pollText(e: PollLogEntry): string {
  const what = [
    `poll #${e.seq}`,
    e.method !== "POST" ? `${e.method} (not POST)` : undefined,
    `authorization ${e.authorization}`,
    `answered ${e.status}`,
    e.problems.length > 0 ? e.problems.join("; ") : undefined,
    e.overLimit,
    e.unknownJtis.length > 0
      ? `names ${e.unknownJtis
          .slice(0, 3)
          .map((j) => quote(j, 60))
          .join(", ")} never handed out on this stream`
      : undefined,
  ];
  return what.filter((x) => x !== undefined).join(", ");
}

/** "n of N poll requests: the first ones" for a finding. */
const tallyText = (t: PollTally, polls: number, also: readonly PollLogEntry[] = []): string => {
  const ex = [...t.examples, ...also].slice(0, 3).map(pollText);
  return `${t.count + also.length} of ${polls} poll request(s); the first: ${ex.join(" | ")}`;
};

/**
 * The first leak in a setErrs entry the Receiver sent (its description and err), by the push
 * observer's own patterns (`leakOf` reads only an answer's text and JSON, given here).
 */
const leakOfErr = (e: { err?: string; description?: string }): string | undefined =>
  leakOf({
    text: "",
    json: { err: e.err, description: e.description },
    jsonError: undefined,
  } satisfies Pick<ObservedExchange, "text" | "json" | "jsonError"> as ObservedExchange);

/**
 * RFC 8936 §2.1 and the stream's authorization, judged on EVERY poll request of the run: the
 * mock counts each kind over all of them (its detailed log keeps only the first and the latest,
 * and a Receiver polling in a tight loop makes thousands), with the first examples. Runs after
 * every other check (`stream.last.test.ts`).
 */
export const pollLogChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.poll-requests",
    title:
      "every poll request of the run is a POST of a JSON object whose RFC 8936 members have their types, carries the stream's authorization, acknowledges only SETs handed out to it, and reports errors in setErrs without internal details",
    requirements: [
      "CAEPR-POLL-REQUEST-FORMAT",
      "CAEPR-POLL-AUTH",
      "CAEPR-POLL-ACK-ONLY-DELIVERED",
      "CAEPR-ERROR-NO-LEAK",
    ],
    timeoutMs: 60_000,
    async run(c) {
      if (c.profile.delivery !== "poll")
        c.skip("not offered: push delivery (suites.caep-receiver.delivery: push)", "not-offered");
      const k = new ReceiverClient(c);
      const s = await k.stream();
      const st = await k.mock.pollStats(s.streamId);
      if (st === undefined || st.polls === 0)
        return c.skip("the Receiver never polled its stream: no poll request to judge", "other");
      const kept = new Set([...st.first, ...st.last].map((e) => e.seq)).size;
      if (kept < st.polls)
        c.note(
          `${st.polls} poll requests in all: each rule below is judged on every one of them (the mock's counts); the detailed log keeps the first ${st.first.length} and the latest ${st.last.length}`,
        );

      // Form: a JSON object of the RFC 8936 §2.1 members with their types, by POST.
      const form = st.formProblems.count + st.otherMethods.count;
      if (st.read === 0 && form === 0)
        c.partly(
          "CAEPR-POLL-REQUEST-FORMAT",
          "no poll request's body was read: each was refused for its authorization or size",
          "other",
        );
      else
        c.check("CAEPR-POLL-REQUEST-FORMAT", form === 0, {
          message:
            st.otherMethods.count > 0
              ? "a request to the poll endpoint by another method than POST"
              : "a poll request's body is not what RFC 8936 §2.1 gives",
          expected:
            "POST with a JSON object: maxEvents a non-negative integer, returnImmediately a boolean, ack an array of jti strings, setErrs an object of jti to {err, description}",
          actual: tallyText(st.formProblems, st.polls, st.otherMethods.examples),
          kind: "malformed",
        });

      // Authorization: every poll (a POST to the poll endpoint) carries the Receiver's token.
      const unauthorized = st.authAbsent.count + st.authWrong.count;
      const withoutFirst = st.authAbsent.count >= st.authWrong.count;
      c.check("CAEPR-POLL-AUTH", unauthorized === 0, {
        message: `a poll request ${withoutFirst ? "without" : "with the wrong"} authorization`,
        expected:
          "Authorization: Bearer with the token the Transmitter issued to this Receiver, on every poll",
        actual: `${unauthorized} of ${st.polls} poll request(s) (${st.authAbsent.count} without, ${st.authWrong.count} with another); the first: ${[
          ...st.authAbsent.examples,
          ...st.authWrong.examples,
        ]
          .sort((a, b) => a.seq - b.seq)
          .slice(0, 3)
          .map(pollText)
          .join(" | ")}`,
        kind: withoutFirst ? "missing" : "wrong-value",
      });

      // Acknowledgements: only of SETs handed out, and again only after they were handed out again.
      const { unsolicited, overAcked } = st.ackAnomalies;
      const acks = st.unknownJtis.count + unsolicited.count + overAcked.count;
      if (st.answered === 0)
        c.partly(
          "CAEPR-POLL-ACK-ONLY-DELIVERED",
          "no poll request was answered: no acknowledgement was applied",
          "other",
        );
      else
        c.check("CAEPR-POLL-ACK-ONLY-DELIVERED", acks === 0, {
          message: "an ack names a SET not handed out to the Receiver since it was last acknowledged",
          expected:
            "ack names only SETs handed out to the Receiver, and a SET again only after it was handed out again",
          actual: [
            st.unknownJtis.count > 0
              ? `${st.unknownJtis.count} poll request(s) name jtis never handed out on this stream (${st.unknownJtis.examples
                  .slice(0, 2)
                  .map(pollText)
                  .join(" | ")})`
              : undefined,
            unsolicited.count > 0
              ? `${unsolicited.count} SET(s) acknowledged or reported while not handed out (${unsolicited.examples
                  .slice(0, 3)
                  .map((x) => `${quote(x.jti, 60)} ${x.times} time(s)`)
                  .join(", ")})`
              : undefined,
            overAcked.count > 0
              ? `${overAcked.count} SET(s) acknowledged more often than handed out (${overAcked.examples
                  .slice(0, 3)
                  .map((x) => `${quote(x.jti, 60)} ${x.acks} acks for ${x.deliveries} deliveries`)
                  .join(", ")})`
              : undefined,
          ]
            .filter((x) => x !== undefined)
            .join("; "),
          kind: "wrong-value",
        });

      // The descriptions the Receiver gave the Transmitter of its refusals (RFC 8936 §2.2 setErrs).
      const errs = st.setErrs;
      if (errs.total === 0)
        c.partly(
          "CAEPR-ERROR-NO-LEAK",
          "the Receiver reported no SET in setErrs: no error description to judge",
          "other",
        );
      else {
        if (errs.dropped > 0)
          c.partly(
            "CAEPR-ERROR-NO-LEAK",
            `${errs.dropped} of ${errs.total} setErrs entries were not kept by the mock (more than ${errs.distinct.length} distinct descriptions): not judged`,
            "other",
          );
        await c.each("CAEPR-ERROR-NO-LEAK", errs.distinct, "setErrs descriptions", (e) => {
          const leak = leakOfErr(e);
          return leak === undefined
            ? undefined
            : {
                message: "a setErrs description leaks internal details",
                expected: "no stack trace, SQL, file path or framework banner in a setErrs entry",
                actual: `err ${quote(e.err ?? null, 40)}, reported ${e.count} time(s) from poll #${e.firstSeq}: ${leak}`,
                kind: "wrong-value",
              };
        });
      }
    },
  }),
];
