import fc from "fast-check";
import { defineCheck, type CheckContext, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { tokenAttacks } from "../../../src/engine/token-attacks.js";
import { CAEP_EVENT_NAMES, DELIVERY_ERROR_CODES, type CaepEventName } from "../../../src/protocols/caep.js";
import type { PollLogEntry, PollOutcome } from "../../../mocks/transmitter/types.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient, type StreamInfo } from "../receiver-client.js";
import type { FreshSubject } from "../subjects.js";

type Ctx = CheckContext<CaepReceiverProfile>;

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
] as const;
type Id = (typeof IDS)[number];

const batchArb: fc.Arbitrary<Batch> = fc.record({
  items: fc.array(
    fc.oneof(
      {
        weight: 2,
        arbitrary: fc.record({ event: fc.constantFrom(...CAEP_EVENT_NAMES), replay: fc.boolean() }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          event: fc.constantFrom(...CAEP_EVENT_NAMES),
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

/** What a batch's outcomes break (RFC 8936 §2.2, §2.4), per requirement. */
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
    if (item.broken === undefined) {
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
    if (o.kind === "pending")
      out.push({
        id: "CAEPR-POLL-NO-LOSS",
        details: {
          message: `${what}: ${o.deliveries === 0 ? "never polled for, though the Transmitter had it" : item.replay && o.acks > 0 ? "handed out again after its acknowledgement (as after a lost ack), then neither acknowledged nor reported" : "handed out, then neither acknowledged nor reported"} within ${timeoutMs} ms`,
          expected: `${what}: acknowledged or reported in setErrs${item.replay ? ", again after its replay" : ""} (a SET the Receiver did not settle is handed out again, and must not be lost)`,
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
 * (a SHOULD). Without the hook, subjects it does not know, once one such SET was acknowledged.
 */
async function subjectsFor(c: Ctx, k: ReceiverClient, s: StreamInfo): Promise<FreshSubject[]> {
  const known: FreshSubject[] = [];
  for (let i = 0; i < KNOWN_SUBJECTS; i++) {
    const one = await k.session(`session hook (subject of the generated SETs, ${i + 1})`);
    if (one === undefined) break;
    known.push(one);
  }
  if (known.length > 0) return known;
  const v = await k.set("session-revoked", { subject: k.subjects.fresh().user });
  await k.mock.enqueue(s.streamId, [{ jti: v.jti, token: v.token }]);
  const got = await k.mock.outcomes(s.streamId, [v.jti], c.profile.deliveryTimeoutMs);
  const o = got.outcomes[v.jti];
  if (o?.kind !== "acked")
    c.skip(
      `without hooks.session the generated SETs name subjects the Receiver does not know, and it did not acknowledge such a SET (${o === undefined ? "no outcome" : outcomeText(o)}): see CAEPR-UNKNOWN-SUBJECT`,
      "dependency",
    );
  return [];
}

/** The members RFC 8936 §2.1 gives a poll request, and what each must be. */
function formProblems(e: PollLogEntry): string[] {
  if (e.parseError !== undefined) return [`the body is not JSON (${e.parseError})`];
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  if (e.body !== undefined ? !isObject(e.body) : e.problems.some((p) => /not a JSON object/.test(p)))
    return [`the body is not a JSON object: ${quote(e.body, 80)}`];
  const out: string[] = [];
  const { maxEvents, returnImmediately, ack, setErrs } = e;
  if (maxEvents !== undefined && !(Number.isInteger(maxEvents) && (maxEvents as number) >= 0))
    out.push(`maxEvents is ${quote(maxEvents, 60)}, not a non-negative integer`);
  if (returnImmediately !== undefined && typeof returnImmediately !== "boolean")
    out.push(`returnImmediately is ${quote(returnImmediately, 60)}, not a boolean`);
  if (ack !== undefined && !(Array.isArray(ack) && ack.every((j) => typeof j === "string")))
    out.push(`ack is ${quote(ack, 80)}, not an array of jti strings`);
  if (setErrs !== undefined) {
    if (!isObject(setErrs))
      out.push(`setErrs is ${quote(setErrs, 80)}, not a JSON object from jti to {err, description}`);
    else {
      const bad = Object.entries(setErrs).find(
        ([, v]) =>
          !isObject(v) ||
          typeof v.err !== "string" ||
          (v.description !== undefined && typeof v.description !== "string"),
      );
      if (bad)
        out.push(
          `setErrs[${quote(bad[0], 60)}] is ${quote(bad[1], 80)}, not {err: string, description?: string}`,
        );
    }
  }
  return out;
}

/** RFC 8936 poll delivery: the Receiver's acknowledgements and error reports, property-based. */
export const pollChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.poll-batches",
    title:
      "for generated batches of valid and invalid SETs, small pages and replays, every valid SET is acknowledged, every invalid one reported in setErrs with an RFC code and never acknowledged, none lost, and no acknowledgement for what was not handed out",
    requirements: [...IDS],
    timeoutMs: 180_000,
    async run(c) {
      if (c.profile.delivery !== "poll")
        c.skip("not offered: push delivery (suites.caep-receiver.delivery: push)", "not-offered");
      const k = new ReceiverClient(c);
      const s = await k.stream();
      const known = await subjectsFor(c, k, s);
      // Per batch (shrinking runs smaller ones) what it broke: the finding shows the batch fast-check ends with.
      const seen = new Map<string, Violation[]>();
      const first = new Map<Id, { batch: Batch; v: Violation }>();
      let runs = 0;
      // What the mock or the signing threw (a harness fault), or a skip or stop: it ends the
      // property at once (every later run passes without work) and is rethrown after, so it is
      // never shrunk as if it were the Receiver's counterexample.
      let fatal: { readonly error: unknown } | undefined;
      try {
        const property = fc.asyncProperty(batchArb, async (b) => {
          if (fatal !== undefined) return true;
          runs++;
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

/**
 * RFC 8936 §2.1 and the stream's authorization, judged on every poll request of the run (the
 * mock's poll log): runs after every other check (`stream.last.test.ts`).
 */
export const pollLogChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.poll-requests",
    title:
      "every poll request of the run is a POST of a JSON object whose RFC 8936 members have their types, carries the stream's authorization, and acknowledges only SETs handed out to it",
    requirements: ["CAEPR-POLL-REQUEST-FORMAT", "CAEPR-POLL-AUTH", "CAEPR-POLL-ACK-ONLY-DELIVERED"],
    timeoutMs: 60_000,
    async run(c) {
      if (c.profile.delivery !== "poll")
        c.skip("not offered: push delivery (suites.caep-receiver.delivery: push)", "not-offered");
      const k = new ReceiverClient(c);
      const s = await k.stream();
      const log = await k.mock.pollLog(0, s.streamId);
      const path = s.endpointUrl !== undefined ? new URL(s.endpointUrl).pathname : undefined;
      // A poll by another method never reaches the poll route: the mock's general log has it.
      const others =
        path === undefined
          ? []
          : (await k.mock.log(path)).filter((e) => e.method !== "POST" && e.path === path);
      // A request whose body the mock did not read (refused for its authorization, too large) has no form to judge.
      const read = log.filter((e) => e.status !== 401 && e.status !== 404 && e.status !== 413);
      const requests: ({ kind: "poll"; e: PollLogEntry } | { kind: "other"; method: string; seq: number })[] =
        [
          ...read.map((e) => ({ kind: "poll" as const, e })),
          ...others.map((e) => ({ kind: "other" as const, method: e.method, seq: e.seq })),
        ];
      await c.each("CAEPR-POLL-REQUEST-FORMAT", requests, "poll requests", (r) => {
        if (r.kind === "other")
          return {
            message: `a ${r.method} to the poll endpoint`,
            expected: "POST with a JSON object (RFC 8936 §2.1)",
            actual: `${r.method} (mock log #${r.seq})`,
            kind: "malformed",
          };
        const p = formProblems(r.e);
        return p.length === 0
          ? undefined
          : {
              message: "the poll request's body is not what RFC 8936 §2.1 gives",
              expected:
                "a JSON object: maxEvents a non-negative integer, returnImmediately a boolean, ack an array of jti strings, setErrs an object of jti to {err, description}",
              actual: `poll #${r.e.seq}: ${p.join("; ")}`,
              kind: "malformed",
            };
      });
      await c.each("CAEPR-POLL-AUTH", log, "poll requests", (e) =>
        e.authorization === "present"
          ? undefined
          : {
              message: `a poll request ${e.authorization === "absent" ? "without" : "with the wrong"} authorization`,
              expected: "Authorization: Bearer with the token the Transmitter issued to this Receiver",
              actual: `poll #${e.seq}: authorization ${e.authorization}, answered ${e.status}`,
              kind: e.authorization === "absent" ? "missing" : "wrong-value",
            },
      );
      // Per jti, the mock's own counts over the stream's whole history (the poll log keeps only
      // the latest requests): acknowledgements while it was not handed out, and more
      // acknowledgements than deliveries. Each is shown at the first request acknowledging it.
      const settled = log.filter((e) => e.status === 200);
      const acksOf = (e: PollLogEntry): string[] =>
        Array.isArray(e.ack) ? e.ack.filter((j): j is string => typeof j === "string") : [];
      const firstAck = new Map<string, number>();
      for (const e of settled) for (const j of acksOf(e)) if (!firstAck.has(j)) firstAck.set(j, e.seq);
      const counts = new Map<string, PollOutcome>();
      const jtis = [...firstAck.keys()];
      for (let i = 0; i < jtis.length; i += 1000) {
        const got = await k.mock.outcomes(s.streamId, jtis.slice(i, i + 1000), 0);
        for (const [j, o] of Object.entries(got.outcomes)) counts.set(j, o);
      }
      await c.each("CAEPR-POLL-ACK-ONLY-DELIVERED", settled, "answered poll requests", (e) => {
        const bad = e.unknownJtis.map((j) => `${quote(j, 60)} was never handed out on this stream`);
        for (const j of acksOf(e)) {
          const o = counts.get(j);
          if (firstAck.get(j) !== e.seq || o === undefined || e.unknownJtis.includes(j)) continue;
          if (o.unsolicited > 0)
            bad.push(
              `${quote(j, 60)} acknowledged or reported ${o.unsolicited} time(s) while it was not handed out`,
            );
          else if (o.acks > o.deliveries)
            bad.push(`${quote(j, 60)} acknowledged ${o.acks} times for ${o.deliveries} delivery(ies)`);
        }
        return bad.length === 0
          ? undefined
          : {
              message: "an ack names a SET not handed out to the Receiver since it was last acknowledged",
              expected:
                "ack names only SETs handed out to the Receiver, and a SET again only after it was handed out again",
              actual: `poll #${e.seq}: ${bad.slice(0, 3).join("; ")}${bad.length > 3 ? ` (${bad.length} in all)` : ""}`,
              kind: "wrong-value",
            };
      });
    },
  }),
];
