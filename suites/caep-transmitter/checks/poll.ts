import { defineCheck, type CheckContext, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { bearerCredentialAttacks, type ChallengeErrorAdvice } from "../../../src/engine/token-attacks.js";
import type { PollAnswer, PollBody, PollOptions } from "../poller.js";
import { poll } from "../poller.js";
import type { CaepTransmitterProfile } from "../profile.js";
import {
  acknowledge,
  handedOut,
  isChallenge,
  isMine,
  markerIn,
  more,
  jtisOf,
  pollFor,
  pollStream,
  raise,
  said,
  strangerToken,
  timedPoll,
  type Step,
} from "../model/poll-steps.js";
import { pollObservers, pollResponseProblems } from "../model/poll-response.js";
import { judgeReturnImmediately } from "../model/poll-timing.js";
import { judgeChallenges } from "./stream-util.js";

type Ctx = CheckContext<CaepTransmitterProfile>;

const hasHook = (c: Ctx): boolean => c.profile.hooks.trigger !== undefined;

/** Skips for a step whose answer is no poll response (CAEPT-POLL-RESPONSE judges it). */
function needResponse(c: Ctx, steps: readonly Step[]): void {
  const bad = steps.find((x) => x.a !== undefined && x.a.sets === undefined);
  if (bad?.a !== undefined)
    c.skip(
      `a poll was not answered as RFC 8936 §2.3 says (${bad.a.problem ?? "no sets"}; see CAEPT-POLL-RESPONSE)`,
      "dependency",
    );
}

/**
 * The probes of CAEPT-POLL-AUTH: the shared family's Bearer forms (src/engine/token-attacks.ts):
 * absent, another scheme, empty, malformed, never issued, near misses of the real token.
 */
function authProbes(c: Ctx): {
  what: string;
  o: PollOptions;
  statuses: readonly number[];
  challengeError?: ChallengeErrorAdvice;
}[] {
  return bearerCredentialAttacks(c.profile.receiverToken, strangerToken()).map((b) => {
    for (const v of b.secrets) c.secret(v, "RECEIVER_TOKEN_NEAR_MISS");
    return {
      what: `with ${b.title}`,
      o: b.authorization === null ? { token: null } : { authorization: b.authorization },
      // RFC 6750 §3.1: a malformed request may be answered 400 invalid_request.
      statuses: b.malformed ? [400, 401] : [401],
      ...(b.challengeError !== undefined ? { challengeError: b.challengeError } : {}),
    };
  });
}

/**
 * RFC 8936 poll delivery (§2.1 to §2.4), each check on a poll stream of its own with events
 * about a fresh subject raised through the profile's trigger hook.
 */
export const pollChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-auth",
    title:
      "a poll request without credentials, or with empty, malformed, foreign-scheme, unknown or near-miss ones, is refused with a WWW-Authenticate challenge (401; 400 allowed for an empty or malformed Bearer value) and hands out no SET; the challenge's error attribute is as RFC 6750 §3 advises",
    requirements: ["CAEPT-POLL-AUTH", "CAEPT-CHALLENGE-ERROR"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll auth stream");
      try {
        c.secret(c.profile.receiverToken, "RECEIVER_TOKEN");
        if (hasHook(c)) await raise(k, s, 1, "poll auth");
        else c.note("no trigger hook: no SET was waiting, so a refused answer could not have carried one");
        const results: {
          what: string;
          statuses: readonly number[];
          a: PollAnswer;
          challengeError?: ChallengeErrorAdvice;
        }[] = [];
        for (const p of authProbes(c))
          results.push({
            what: p.what,
            statuses: p.statuses,
            ...(p.challengeError !== undefined ? { challengeError: p.challengeError } : {}),
            a: await poll(
              c,
              s,
              { returnImmediately: true },
              { ...p.o, label: `poll ${p.what}`, tags: ["attack"] },
            ),
          });
        await c.each(
          "CAEPT-POLL-AUTH",
          results,
          "refused poll requests",
          ({ what, statuses, a }): Details | undefined => {
            const status = a.res.status;
            const challenge = a.res.header("www-authenticate");
            const sets = handedOut(a);
            if (statuses.includes(status) && isChallenge(challenge) && sets === 0) return undefined;
            return {
              message: `a poll ${what} ${status >= 200 && status < 300 ? "was accepted" : !statuses.includes(status) ? `was answered ${status}` : "was refused without a WWW-Authenticate challenge"}`,
              expected: `${statuses.join(" or ")} with a WWW-Authenticate challenge (RFC 9110 §11.6.1, RFC 6750 §3), no SET handed out`,
              actual: `${said(a)}, WWW-Authenticate ${quote(challenge ?? null, 120)}`,
              res: a.res,
              kind:
                sets > 0 || (status >= 200 && status < 300)
                  ? "accepted"
                  : !statuses.includes(status)
                    ? "wrong-status"
                    : "missing",
            };
          },
        );
        await judgeChallenges(
          c,
          undefined,
          results
            .filter((r) => r.a.res.status === 401)
            .map((r) => ({
              what: `a poll ${r.what}`,
              res: r.a.res,
              ...(r.challengeError !== undefined ? { challengeError: r.challengeError } : {}),
            })),
        );
      } finally {
        await k.close(s);
      }
    },
  }),

  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-token-in-query",
    title:
      "a poll request carrying the Receiver's valid token only as an access_token query parameter is refused (400, 401 or 403) and hands out no SET",
    requirements: ["CAEPT-POLL-TOKEN-IN-QUERY"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll token-in-query stream");
      try {
        c.secret(c.profile.receiverToken, "RECEIVER_TOKEN");
        // The URL carries it form-encoded (URLSearchParams), which differs from encodeURIComponent for a few characters.
        c.secret(new URLSearchParams({ t: c.profile.receiverToken }).toString().slice(2), "RECEIVER_TOKEN");
        if (hasHook(c)) await raise(k, s, 1, "token in query");
        const a = await poll(
          c,
          s,
          { returnImmediately: true },
          {
            token: null,
            query: { access_token: c.profile.receiverToken },
            label: "poll with the access token only in the URL query",
            tags: ["attack"],
          },
        );
        const status = a.res.status;
        const refused = [400, 401, 403].includes(status);
        c.check("CAEPT-POLL-TOKEN-IN-QUERY", refused && handedOut(a) === 0, {
          message:
            status >= 200 && status < 300
              ? `the token in the URL query was accepted${handedOut(a) > 0 ? `, and ${handedOut(a)} SET(s) handed out` : ""}`
              : `the request was answered ${status}, not refused`,
          expected:
            "refused with 400, 401 or 403 (RFC 6750 §5.3: bearer tokens SHOULD NOT be passed in URLs), no SET handed out",
          actual: said(a),
          res: a.res,
          kind: status >= 200 && status < 300 ? "accepted" : "wrong-status",
        });
      } finally {
        await k.close(s);
      }
    },
  }),

  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-max-events",
    title:
      "with more SETs waiting than asked for, every poll answer holds at most maxEvents SETs (none for maxEvents 0, the acknowledge-only request)",
    requirements: ["CAEPT-POLL-MAX-EVENTS"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll maxEvents stream");
      try {
        const N = 5;
        const r = await raise(k, s, N, "maxEvents");
        const steps: Step[] = [];
        const zero: PollBody = { maxEvents: 0, returnImmediately: true };
        steps.push({ body: zero, a: await poll(c, s, zero, { label: "poll with maxEvents 0" }) });
        const one: PollBody = { maxEvents: 1, returnImmediately: true };
        const first = await poll(c, s, one, { label: "poll with maxEvents 1" });
        steps.push({ body: one, a: first });
        const rest = await pollFor(c, s, r, {
          enough: (m) => m.length + (first.sets ?? []).filter((p) => isMine(s, r, p)).length >= N,
          ack: true,
          maxEvents: 2,
          pending: jtisOf(first),
          label: "poll with maxEvents 2",
        });
        steps.push(...rest.steps);
        steps.push(await acknowledge(c, s, rest.pending, "acknowledge-only poll (maxEvents 0)"));
        const judged = steps.filter((x): x is Step & { a: PollAnswer } => x.a?.sets !== undefined);
        const over = judged.some((x) => x.a.sets!.length > (x.body.maxEvents ?? Infinity));
        const mine = new Set(
          judged.flatMap((x) => x.a.sets!.filter((p) => isMine(s, r, p)).map((p) => p.jti)),
        );
        if (!over) {
          needResponse(c, steps);
          // The hook answers once an event is queued: all N waited when maxEvents 0 and 1 were
          // asked for; two of them seen show more than 1 was there to hand out.
          if (mine.size < 2)
            c.skip(
              `only ${mine.size} of the ${N} events raised arrived within ${c.profile.eventTimeoutMs} ms (see CAEPT-EVENTS-DELIVERED): more than maxEvents were never shown to be waiting`,
              "dependency",
            );
          if (mine.size < N)
            c.note(`${mine.size} of the ${N} events raised were handed out within the time bound`);
        }
        await c.each("CAEPT-POLL-MAX-EVENTS", judged, "poll answers", (x) => {
          const max = x.body.maxEvents ?? Infinity;
          const n = x.a.sets!.length;
          return n <= max
            ? undefined
            : {
                message: `a poll with maxEvents ${max} was answered with ${n} SETs`,
                expected: `at most ${max} SET(s) (RFC 8936 §2.2: the Transmitter SHOULD NOT send more SETs than maxEvents)`,
                actual: `${n} SETs: ${quote(jtisOf(x.a), 200)}`,
                res: x.a.res,
                kind: "wrong-value",
              };
        });
      } finally {
        await k.close(s);
      }
    },
  }),

  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-ack",
    title:
      "a SET acknowledged (in an acknowledge-only request, or beside a poll) is never handed out again, by short or long polls, with or without acknowledgements",
    requirements: ["CAEPT-POLL-ACK"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll ack stream");
      try {
        const r = await raise(k, s, 3, "ack");
        const got = await pollFor(c, s, r, {
          enough: (m) => m.length >= 3,
          ack: false,
          label: "poll (no ack)",
        });
        needResponse(c, got.steps);
        const [j1, j2, j3] = got.mine.map((p) => p.jti);
        if (j1 === undefined || j2 === undefined || j3 === undefined)
          return c.skip(
            `only ${got.mine.length} of the 3 events raised arrived within ${c.profile.eventTimeoutMs} ms (see CAEPT-EVENTS-DELIVERED)`,
            "dependency",
          );
        // Every answer after an acknowledgement, with the jtis acknowledged by then. A later
        // event is raised before each later poll, so every answer has something to carry and
        // none waits on an empty stream.
        const after: { step: Step; acked: readonly string[]; ackRequest: boolean }[] = [];
        after.push({
          step: await acknowledge(c, s, [j1], "acknowledge one SET (maxEvents 0)"),
          acked: [j1],
          ackRequest: true,
        });
        await more(k, s, r, 1, "ack: a later event");
        const beside: PollBody = { ack: [j2, j3], returnImmediately: true };
        const besideA = await poll(c, s, beside, { label: "poll acknowledging two SETs" });
        after.push({ step: { body: beside, a: besideA }, acked: [j1, j2, j3], ackRequest: true });
        await more(k, s, r, 1, "ack: one more event");
        const long: PollBody = { returnImmediately: false };
        const longT = await timedPoll(c, s, long, {
          label: "long poll after the acknowledgements (no ack)",
          timeoutMs: c.profile.eventTimeoutMs,
        });
        after.push({
          step: { body: long, ...(longT.a ? { a: longT.a } : {}) },
          acked: [j1, j2, j3],
          ackRequest: false,
        });
        const later = [...jtisOf(besideA), ...jtisOf(longT.a)].filter((j) => ![j1, j2, j3].includes(j));
        if (later.length === 0)
          c.note("the later events did not arrive: the answers after the acknowledgements carried no SET");
        else await acknowledge(c, s, [...new Set(later)], "acknowledge the later SETs (clean up)");
        await c.each(
          "CAEPT-POLL-ACK",
          after,
          "poll answers after an acknowledgement",
          ({ step, acked, ackRequest }) => {
            const a = step.a;
            if (a === undefined) return undefined;
            if (ackRequest && a.res.status !== 200)
              return {
                message: `a request acknowledging ${quote(step.body.ack, 200)} was answered ${a.res.status}`,
                expected:
                  "200: the acknowledgement taken (RFC 8936 §2.2; maxEvents 0 is an acknowledge-only request)",
                actual: said(a),
                res: a.res,
                kind: "wrong-status",
              };
            const again = jtisOf(a).filter((j) => acked.includes(j));
            return again.length === 0
              ? undefined
              : {
                  message: `acknowledged SET(s) handed out again: ${quote(again, 200)}`,
                  expected:
                    "a SET is never handed out again once a poll request acknowledged its jti (RFC 8936 §2.1)",
                  actual: `the answer to a poll ${quote(step.body, 200)} carries ${quote(jtisOf(a), 300)}`,
                  res: a.res,
                  kind: "wrong-value",
                };
          },
        );
      } finally {
        await k.close(s);
      }
    },
  }),

  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-redeliver",
    title:
      "a SET handed out and not acknowledged is handed out again (the same SET, same jti) by a later poll",
    requirements: ["CAEPT-POLL-REDELIVER"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll redelivery stream");
      try {
        const r = await raise(k, s, 1, "redelivery");
        const got = await pollFor(c, s, r, {
          enough: (m) => m.length >= 1,
          ack: false,
          label: "poll (no ack)",
        });
        needResponse(c, got.steps);
        const first = got.mine[0];
        if (first === undefined)
          return c.skip(
            `the event raised did not arrive within ${c.profile.eventTimeoutMs} ms (see CAEPT-EVENTS-DELIVERED)`,
            "dependency",
          );
        const marker = markerIn(s, first);
        // Later polls, none acknowledging it, until it comes again (or as another SET) or the bound.
        const again = await pollFor(c, s, r, {
          enough: (m) =>
            m.some((p) => p.jti === first.jti || (marker !== undefined && markerIn(s, p) === marker)),
          ack: false,
          label: "poll again (no ack)",
        });
        const same = again.mine.find((p) => p.jti === first.jti);
        const renamed = again.mine.find(
          (p) => p.jti !== first.jti && marker !== undefined && markerIn(s, p) === marker,
        );
        const lastA = [...again.steps].reverse().find((x) => x.a !== undefined)?.a;
        c.check("CAEPT-POLL-REDELIVER", same !== undefined, {
          message:
            renamed !== undefined
              ? `the unacknowledged event came again as another SET (jti ${quote(renamed.jti, 60)}, not ${quote(first.jti, 60)})`
              : `SET ${quote(first.jti, 60)}, handed out and not acknowledged, was not handed out again within ${c.profile.eventTimeoutMs} ms`,
          expected: "the same SET handed out again until it is acknowledged (RFC 8936 §2.1, §2.3)",
          actual: `${again.steps.length} later poll(s), none acknowledging it: ${again.steps.map((x) => said(x.a)).join("; ")}`,
          ...(lastA !== undefined ? { res: lastA.res } : {}),
          kind: "missing",
        });
        const settle = [...new Set([first.jti, ...again.mine.map((p) => p.jti)])];
        await acknowledge(c, s, settle, "acknowledge (clean up)");
      } finally {
        await k.close(s);
      }
    },
  }),

  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-return-immediately",
    title:
      "a poll with returnImmediately true on a stream with nothing waiting is answered at once: well under half the time a long poll is held there (RFC 8936 §2.2)",
    requirements: ["CAEPT-POLL-RETURN-IMMEDIATELY"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll returnImmediately stream");
      try {
        await judgeReturnImmediately(c, k, s);
      } finally {
        await k.close(s);
      }
    },
  }),

  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-more-available",
    title:
      "a poll answer that leaves raised SETs waiting (maxEvents 1) says moreAvailable true, and an answer saying true leaves SETs to be handed out",
    requirements: ["CAEPT-POLL-MORE-AVAILABLE"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll moreAvailable stream");
      try {
        const N = 3;
        const r = await raise(k, s, N, "moreAvailable");
        const seen = new Set<string>();
        const judged: { a: PollAnswer; waiting: number; converse?: true }[] = [];
        let pending: string[] = [];
        let whole = false;
        let last: PollAnswer | undefined;
        for (let i = 0; i < N + 2 && seen.size < N; i++) {
          const body: PollBody = {
            maxEvents: 1,
            returnImmediately: true,
            ...(pending.length > 0 ? { ack: pending } : {}),
          };
          const a = await poll(c, s, body, { label: "poll with maxEvents 1" });
          needResponse(c, [{ body, a }]);
          last = a;
          pending = jtisOf(a);
          if (a.sets!.length > 1) whole = true;
          for (const p of a.sets!) if (isMine(s, r, p)) seen.add(p.jti);
          // Raised before the request and not handed out yet: still waiting after it.
          const waiting = N - seen.size;
          if (waiting > 0) judged.push({ a, waiting });
          if (a.sets!.length === 0) break;
        }
        if (last?.moreAvailable === true) {
          // Said true with nothing of ours left: the next poll shows whether anything was.
          const next = await poll(
            c,
            s,
            { ...(pending.length > 0 ? { ack: pending } : {}), returnImmediately: true },
            { label: "poll after moreAvailable true" },
          );
          pending = jtisOf(next);
          if (next.sets !== undefined && next.sets.length === 0)
            judged.push({ a: last, waiting: 0, converse: true });
        }
        if (pending.length > 0) await acknowledge(c, s, pending, "acknowledge (clean up)");
        if (judged.length === 0)
          c.skip(
            whole
              ? "the Transmitter handed out every raised SET at once although maxEvents was 1 (see CAEPT-POLL-MAX-EVENTS): no answer left SETs waiting"
              : `the ${N} events raised did not arrive within the polls made (see CAEPT-EVENTS-DELIVERED): no answer left SETs waiting`,
            "dependency",
          );
        await c.each("CAEPT-POLL-MORE-AVAILABLE", judged, "poll answers", ({ a, waiting, converse }) => {
          if (converse)
            return {
              message: "moreAvailable true, but the next poll handed out nothing",
              expected:
                "moreAvailable true only while more unacknowledged SETs are available (RFC 8936 §2.3)",
              actual: `moreAvailable ${quote(a.moreAvailable)}; the next poll: no SET`,
              res: a.res,
              kind: "wrong-value",
            };
          return a.moreAvailable === true
            ? undefined
            : {
                message: `an answer left ${waiting} raised SET(s) waiting and said moreAvailable ${quote(a.moreAvailable)}`,
                expected:
                  "moreAvailable true while more unacknowledged SETs are available (RFC 8936 §2.3; omitted means false)",
                actual: `${a.sets?.length ?? 0} SET(s) handed out with maxEvents 1, ${waiting} raised before the request still waiting, moreAvailable ${quote(a.moreAvailable)}`,
                res: a.res,
                kind: a.moreAvailable === undefined ? "missing" : "wrong-value",
              };
        });
      } finally {
        await k.close(s);
      }
    },
  }),

  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.poll-response",
    title:
      "a poll is answered 200, application/json, with a JSON object whose sets maps each SET's jti to the SET as a string, and moreAvailable a boolean when present",
    requirements: ["CAEPT-POLL-RESPONSE"],
    async run(c) {
      const { k, s } = await pollStream(c, "poll response stream");
      try {
        const steps: Step[] = [];
        if (hasHook(c)) {
          const r = await raise(k, s, 2, "poll response");
          const got = await pollFor(c, s, r, { enough: (m) => m.length >= 2, ack: true, label: "poll" });
          steps.push(...got.steps);
          steps.push(await acknowledge(c, s, got.pending, "acknowledge-only poll (maxEvents 0)"));
        } else {
          const body: PollBody = { returnImmediately: true };
          steps.push({ body, a: await poll(c, s, body, { label: "poll" }) });
        }
        const answers = steps.flatMap((x) => (x.a !== undefined ? [x.a] : []));
        if (!answers.some((a) => (a.sets?.length ?? 0) > 0 || a.notStrings.length > 0))
          c.partly(
            "CAEPT-POLL-RESPONSE",
            hasHook(c)
              ? "no answer carried a SET: the member names could not be compared with jtis"
              : "needs hook: without suites.caep-transmitter.hooks.trigger no SET waits, so only empty answers were judged",
            hasHook(c) ? "other" : "needs-hook",
          );
        await c.each("CAEPT-POLL-RESPONSE", answers, "poll answers", (a) => {
          const p = pollResponseProblems({
            status: a.res.status,
            contentType: a.res.header("content-type"),
            json: a.res.json,
            jsonError: a.res.jsonError,
          });
          return p.length === 0
            ? undefined
            : {
                message: `the poll answer is not what RFC 8936 §2.3 gives: ${p[0]}`,
                expected: '200, application/json, {"sets": {"<jti>": "<SET>"}, "moreAvailable"?: boolean}',
                actual: p.join("; "),
                res: a.res,
                kind: a.res.status !== 200 ? "wrong-status" : "malformed",
              };
        });
      } finally {
        await k.close(s);
      }
    },
  }),
];

export { pollObservers };
