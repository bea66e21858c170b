import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { CAEP_EVENT_URIS, StreamClient, type Stream } from "../client.js";
import type { PollAnswer } from "../poller.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { collect, describeSet, eventsOf, mark, type CollectedSet } from "../sets.js";
import { namesSubject } from "../subjects.js";
import { methodsOf } from "./stream-util.js";

const short = (uri: string): string => uri.slice(uri.lastIndexOf("/") + 1);

export const eventChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.events",
    title:
      "each of the eight CAEP event types the stream delivers, triggered through the hook about a subject of the stream, arrives on it within eventTimeoutMs and names that subject, on push and on poll (CAEP 1.0 §3; SSF 1.0 §8.1.1, §8.1.2.1)",
    requirements: ["CAEPT-EVENTS-DELIVERED", "CAEPT-EVENTS-SUBJECT"],
    async run(c) {
      if (c.profile.hooks.trigger === undefined)
        c.skip(
          "needs hook: the profile gives no suites.caep-transmitter.hooks.trigger (a POST that makes the Transmitter emit an event)",
          "needs-hook",
        );
      const k = new StreamClient(c);
      const made: Stream[] = [];
      let judged = 0;
      try {
        for (const m of await methodsOf(c, k)) {
          const s = await k.open(m, { label: `create ${m} stream` });
          made.push(s);
          const events = CAEP_EVENT_URIS.filter((u) => s.delivered.includes(u));
          const left = CAEP_EVENT_URIS.filter((u) => !s.delivered.includes(u));
          if (left.length > 0)
            c.note(
              `the ${m} stream's events_delivered leaves out ${left.map(short).join(", ")}: not triggered there`,
            );
          if (events.length === 0) continue;
          const subject = await k.subscribe(s);
          const since = await mark(k, s);
          for (const e of events)
            await k.trigger(e, subject, { streamId: s.id, label: `trigger ${short(e)} (${m})` });
          const answers: PollAnswer[] = [];
          const got = await collect(k, s, {
            since,
            until: (g) => events.every((e) => g.some((x) => eventsOf(x).includes(e))),
            onPollAnswer: (a) => void answers.push(a),
            label: `poll for the ${events.length} events`,
          });
          const broken = answers.find((a) => a.problem !== undefined);
          if (m === "poll" && got.length === 0 && broken !== undefined) {
            // Nothing could be read: what the poll answers are is CAEPT-POLL-RESPONSE's to judge.
            c.partly(
              "CAEPT-EVENTS-DELIVERED",
              `not exercised on the poll stream: its poll answers are no RFC 8936 poll responses (${broken.problem}; see CAEPT-POLL-RESPONSE)`,
              "dependency",
            );
            c.partly(
              "CAEPT-EVENTS-SUBJECT",
              "not exercised on the poll stream: no SET could be read from it",
              "dependency",
            );
            continue;
          }
          judged++;
          await c.each("CAEPT-EVENTS-DELIVERED", events, `event types on the ${m} stream`, (e) =>
            got.some((x) => eventsOf(x).includes(e))
              ? undefined
              : {
                  message: `no ${short(e)} SET arrived on the ${m} stream within ${c.profile.eventTimeoutMs} ms of its trigger`,
                  expected: `a SET with the event ${e}`,
                  actual: `${got.length} SET(s) arrived: ${quote(got.map(describeSet), 400)}`,
                  kind: "missing",
                },
          );
          const caused: CollectedSet[] = got.filter((x) => eventsOf(x).some((e) => events.includes(e)));
          await c.each("CAEPT-EVENTS-SUBJECT", caused, `triggered SETs on the ${m} stream`, (x) =>
            namesSubject(x.payload?.sub_id, subject)
              ? undefined
              : {
                  message: `${describeSet(x)} does not name the subject the trigger named`,
                  expected: `sub_id ${quote(subject)} (or a complex subject with it as a member)`,
                  actual: `sub_id ${quote(x.payload?.sub_id, 200)}`,
                  kind: x.payload?.sub_id === undefined ? "missing" : "wrong-value",
                },
          );
        }
        if (
          judged === 0 &&
          made.length > 0 &&
          made.every((s) => !CAEP_EVENT_URIS.some((u) => s.delivered.includes(u)))
        )
          c.skip(
            "not offered: no stream's events_delivered names any of the eight CAEP event types",
            "not-offered",
          );
      } finally {
        for (const s of made) await k.close(s);
      }
    },
  }),
];
