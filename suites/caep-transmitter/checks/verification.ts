import { randomBytes } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { SSF_VERIFICATION_EVENT } from "../../../src/protocols/caep.js";
import { StreamClient, type Stream } from "../client.js";
import { poll, type PollAnswer } from "../poller.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { collect, describeSet, fromPoll, fromPush, mark, type CollectedSet } from "../sets.js";
import { isObject, methodsOf, said } from "./stream-util.js";

/** The state a verification SET carries, or undefined when it is no verification SET. */
function verificationState(s: CollectedSet): { state: unknown } | undefined {
  const ev = s.payload?.events;
  if (!isObject(ev) || !(SSF_VERIFICATION_EVENT in ev)) return undefined;
  const claims = ev[SSF_VERIFICATION_EVENT];
  return { state: isObject(claims) ? claims.state : undefined };
}

/** What arrived on another stream since `since`, without waiting and without acknowledging. */
async function arrivedOn(k: StreamClient, s: Stream, since: number): Promise<CollectedSet[]> {
  if (s.method === "push")
    return s.slot === undefined ? [] : (await k.mock.sets(s.slot, since)).map((p) => fromPush(p, s.id));
  const a = await poll(
    k.c,
    s,
    { returnImmediately: true },
    { label: "poll the other stream (not acknowledged)" },
  );
  return (a.sets ?? []).map((p) => fromPoll(p, s.id));
}

export const verificationChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.verification",
    title:
      "a verification request is answered 204 and a verification SET with its state and sub_id opaque = stream_id arrives on that stream, not another; one without state (OPTIONAL) is answered 204 and its SET arrives too (SSF 1.0 §8.1.4)",
    requirements: ["CAEPT-VERIFY"],
    async run(c) {
      const R = "CAEPT-VERIFY";
      const k = new StreamClient(c);
      const made: Stream[] = [];
      try {
        for (const m of await methodsOf(c, k)) {
          // Two streams of the Receiver: the one verified, and one where the SET must not go.
          const other = await k.open(m, { label: `create ${m} stream (not verified)` });
          made.push(other);
          const s = await k.open(m, { label: `create ${m} stream (verified)` });
          made.push(s);
          const [sinceS, sinceOther] = [await mark(k, s), await mark(k, other)];
          const state = `idc-${randomBytes(9).toString("base64url")}`;
          const res = await k.verify(s.id, state);
          c.check(R, res.status === 204, {
            message: `the verification request on a ${m} stream is not answered 204`,
            expected: "204 No Content",
            actual: said(res),
            res,
            kind: "wrong-status",
          });
          if (res.status < 200 || res.status > 299) continue;
          const answers: PollAnswer[] = [];
          const got = await collect(k, s, {
            since: sinceS,
            until: (g) => g.some((x) => verificationState(x)?.state === state),
            onPollAnswer: (a) => void answers.push(a),
            label: "poll for the verification SET",
          });
          const broken = answers.find((a) => a.problem !== undefined);
          if (m === "poll" && got.length === 0 && broken !== undefined) {
            // Nothing could be read: what the poll answers are is CAEPT-POLL-RESPONSE's to judge.
            c.partly(
              R,
              `not exercised on the poll stream: its poll answers are no RFC 8936 poll responses (${broken.problem}; see CAEPT-POLL-RESPONSE)`,
              "dependency",
            );
            continue;
          }
          const mine = got.find((x) => verificationState(x)?.state === state);
          const elsewhere = (await arrivedOn(k, other, sinceOther)).filter(
            (x) => verificationState(x)?.state === state,
          );
          c.check(R, elsewhere.length === 0, {
            message: `the verification SET of one ${m} stream arrived on another stream of the Receiver`,
            expected: `the SET with state ${quote(state)} only on stream ${quote(s.id)}`,
            actual: elsewhere[0]
              ? `${describeSet(elsewhere[0])} on stream ${quote(other.id)}`
              : "none elsewhere",
          });
          if (mine === undefined) {
            const stateless = got.filter((x) => verificationState(x) !== undefined);
            c.check(R, false, {
              message: `no verification SET carrying the state sent arrived on the ${m} stream within ${c.profile.eventTimeoutMs} ms`,
              expected: `a verification SET with state ${quote(state)}`,
              actual:
                stateless.length > 0
                  ? `${stateless.length} verification SET(s) with state ${quote(verificationState(stateless[0]!)?.state)}`
                  : `${got.length} SET(s) arrived, none a verification SET`,
              kind: stateless.length > 0 ? "wrong-value" : "missing",
            });
            continue;
          }
          const sub = mine.payload?.sub_id;
          c.check(R, isObject(sub) && sub.format === "opaque" && sub.id === s.id, {
            message: "the verification SET's sub_id does not name the stream verified",
            expected: `sub_id {format: "opaque", id: ${quote(s.id)}}`,
            actual: `sub_id ${quote(sub, 200)} in ${describeSet(mine)}`,
            kind: sub === undefined ? "missing" : "wrong-value",
          });
          // state is OPTIONAL (§8.1.4.2): a request without one is as valid. Sent on the other
          // stream, not verified yet, so no min_verification_interval can answer it 429.
          const sinceBare = await mark(k, other);
          const bare = await k.call("POST", "verification_endpoint", {
            json: { stream_id: other.id },
            label: `request verification without state (${m} stream)`,
          });
          c.check(R, bare.status === 204, {
            message: `a verification request without state (OPTIONAL) on a ${m} stream is not answered 204`,
            expected: "204 No Content: state is OPTIONAL (SSF 1.0 §8.1.4.2)",
            actual: said(bare),
            res: bare,
            kind: "wrong-status",
          });
          if (bare.status < 200 || bare.status > 299) continue;
          const bareGot = await collect(k, other, {
            since: sinceBare,
            until: (g) => g.some((x) => verificationState(x) !== undefined),
            label: "poll for the verification SET (no state)",
          });
          const verified = bareGot.filter((x) => verificationState(x) !== undefined);
          c.check(R, verified.length > 0, {
            message: `no verification SET arrived on the ${m} stream within ${c.profile.eventTimeoutMs} ms of a request without state`,
            expected: "a verification SET on that stream",
            actual: `${bareGot.length} SET(s) arrived, none a verification SET`,
            kind: "missing",
          });
        }
      } finally {
        for (const s of made) await k.close(s);
      }
    },
  }),
];
