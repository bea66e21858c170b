import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { SET_MEDIA_TYPE } from "../../../src/protocols/caep.js";
import { CAEP_EVENT_URIS, StreamClient, type Stream } from "../client.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { collect, decodeSet, describeSet, fromPush, mark, type CollectedSet } from "../sets.js";
import { slots as ledgerSlots } from "../ledger.js";
import { methodsOf, type Ctx } from "./stream-util.js";

/** The Retry-After the mock Receiver asks for, in seconds (short: the run is bounded). */
const RETRY_AFTER_S = 1;
/** How early a retry may come and still count as after Retry-After (timer granularity). */
const EARLY_SLACK_MS = 50;
/** How long a push refused with 400 is watched for a resend. */
const RESEND_WINDOW_MS = 2000;

/** A push stream with a subject, for the resilience checks; skips when the run has none. */
async function pushStream(
  c: Ctx,
  k: StreamClient,
): Promise<{ s: Stream; event: string; subject: Record<string, unknown> & { format: string } }> {
  if (!c.profile.pushResilience)
    c.skip(
      "not exercised: the profile turns the push resilience checks off (suites.caep-transmitter.pushResilience: false)",
      "not-exercised",
    );
  if (c.profile.hooks.trigger === undefined)
    c.skip(
      "needs hook: the profile gives no suites.caep-transmitter.hooks.trigger (a SET must be made to arrive)",
      "needs-hook",
    );
  if (!(await methodsOf(c, k)).includes("push"))
    c.skip("not offered: the run tests no push delivery", "not-offered");
  const s = await k.open("push", { label: "create push stream" });
  const event = CAEP_EVENT_URIS.find((u) => s.delivered.includes(u));
  if (event === undefined) {
    await k.close(s);
    return c.skip("not offered: the push stream's events_delivered names no CAEP event type", "not-offered");
  }
  const subject = await k.subscribe(s);
  return { s, event, subject };
}

/** The pushes of one SET (by jti, else by body) among what a slot received. */
const sameSet = (a: CollectedSet, b: CollectedSet): boolean =>
  a.jti !== undefined ? a.jti === b.jti : a.token === b.token;

export const pushChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.push-retry",
    title:
      "a push answered 503 or 429 with Retry-After is pushed again, not before Retry-After has passed (RFC 8935 §4; RFC 9110 §10.2.3)",
    requirements: ["CAEPT-PUSH-RETRY"],
    timeoutMs: 60_000,
    async run(c) {
      const k = new StreamClient(c);
      const { s, event, subject } = await pushStream(c, k);
      try {
        for (const status of [503, 429]) {
          const since = await mark(k, s);
          await k.mock.respond(s.slot!, { status, retryAfter: RETRY_AFTER_S, times: 1 });
          await k.trigger(event, subject, { streamId: s.id, label: `trigger (push answered ${status})` });
          const bound = RETRY_AFTER_S * 1000 + c.profile.eventTimeoutMs;
          const got = await collect(k, s, { since, until: (g) => g.some((x) => x.status === status) });
          const first = got.find((x) => x.status === status);
          if (first === undefined)
            return c.skip(
              `no SET arrived on the push stream within ${c.profile.eventTimeoutMs} ms of the trigger to be answered ${status} (see CAEPT-EVENTS-DELIVERED)`,
              "dependency",
            );
          // Every push of that SET after the refusal, until one is accepted or the bound passes.
          const later = await collect(k, s, {
            since: first.seq ?? since,
            timeoutMs: bound,
            // A retry after Retry-After ends the wait; earlier ones are seen on the way.
            until: (g) =>
              g.some((x) => sameSet(x, first) && x.at - first.at >= RETRY_AFTER_S * 1000 - EARLY_SLACK_MS),
          });
          const again = later.filter((x) => sameSet(x, first));
          const gaps = again.map((x) => x.at - first.at);
          c.note(
            `after ${status} with Retry-After: ${RETRY_AFTER_S}, ${describeSet(first)} was pushed again ${again.length} time(s)${gaps.length ? ` at +${gaps.join(" ms, +")} ms` : ""} (watched ${bound} ms)`,
          );
          const early = gaps.filter((g) => g < RETRY_AFTER_S * 1000 - EARLY_SLACK_MS);
          c.check("CAEPT-PUSH-RETRY", again.length > 0 && early.length === 0, {
            message:
              again.length === 0
                ? `the SET answered ${status} was not pushed again within ${bound} ms`
                : `the SET answered ${status} was pushed again before Retry-After (${RETRY_AFTER_S} s) had passed`,
            expected: `the same SET pushed again, no sooner than ${RETRY_AFTER_S * 1000} ms after the ${status}`,
            actual: again.length === 0 ? "not pushed again" : `pushed again at +${gaps.join(" ms, +")} ms`,
            kind: again.length === 0 ? "missing" : "wrong-value",
          });
        }
      } finally {
        await k.mock.disarm(s.slot!).catch(() => undefined);
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.push-no-resend-400",
    title: "a SET the Receiver refused with 400 invalid_request is not pushed again (RFC 8935 §4, §2.3)",
    requirements: ["CAEPT-PUSH-NO-RESEND-400"],
    async run(c) {
      const k = new StreamClient(c);
      const { s, event, subject } = await pushStream(c, k);
      try {
        const since = await mark(k, s);
        await k.mock.respond(s.slot!, {
          status: 400,
          err: "invalid_request",
          description: "idconform refuses this SET on purpose",
          times: 1,
        });
        await k.trigger(event, subject, { streamId: s.id, label: "trigger (push answered 400)" });
        const got = await collect(k, s, { since, until: (g) => g.some((x) => x.status === 400) });
        const first = got.find((x) => x.status === 400);
        if (first === undefined)
          return c.skip(
            `no SET arrived on the push stream within ${c.profile.eventTimeoutMs} ms of the trigger to be answered 400 (see CAEPT-EVENTS-DELIVERED)`,
            "dependency",
          );
        // Waiting for a resend that should not come: bounded, on the mock's own signal.
        const after = await collect(k, s, {
          since: first.seq ?? since,
          timeoutMs: RESEND_WINDOW_MS,
          until: (g) => g.some((x) => sameSet(x, first)),
        });
        const resent = after.filter((x) => sameSet(x, first));
        c.note(`watched ${RESEND_WINDOW_MS} ms after the 400 for a resend of ${describeSet(first)}`);
        c.check("CAEPT-PUSH-NO-RESEND-400", resent.length === 0, {
          message: "the SET refused with 400 invalid_request was pushed again",
          expected: "no further push of that SET",
          actual: `pushed again ${resent.length} time(s), first at +${resent[0] ? resent[0].at - first.at : 0} ms`,
          kind: "wrong-value",
        });
      } finally {
        await k.mock.disarm(s.slot!).catch(() => undefined);
        await k.close(s);
      }
    },
  }),
];

/**
 * RFC 8935 §2.1 and SSF §6.1.1, judged on every push the mock Receiver recorded in the run (every
 * slot, every check): runs after every other check (a `.last` file).
 */
export const everyPushChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.every-push",
    title:
      "every push of the run is a POST of one compact SET with Content-Type application/secevent+jwt and the authorization_header the Receiver gave (RFC 8935 §2.1; SSF 1.0 §6.1.1)",
    requirements: ["CAEPT-PUSH-REQUEST"],
    async run(c) {
      const R = "CAEPT-PUSH-REQUEST";
      const k = new StreamClient(c);
      const known = await ledgerSlots(k.provided.runDir);
      const stats = await k.mock.stats();
      const pushes: CollectedSet[] = [];
      let evicted = 0;
      for (const slot of stats.slots) {
        evicted += slot.evicted;
        const e = known.get(slot.slot);
        for (const p of await k.mock.sets(slot.slot, 0))
          pushes.push(fromPush(p, e?.streamId ?? `(slot ${slot.slot})`));
      }
      if (evicted > 0)
        c.partly(
          R,
          `${evicted} push(es) were dropped from the mock Receiver's bounded log before they could be judged`,
          "other",
        );
      const over = stats.slots.reduce((n, s) => n + s.flood.overCap, 0);
      c.check(R, over === 0, {
        message: `${over} push body(ies) exceeded 64 KiB: no SET is that large`,
        expected: "a body that is one SET in compact form",
        actual: `${over} push(es) over 64 KiB (answered 413, not stored)`,
        kind: "malformed",
      });
      await c.each(R, pushes, "pushes", (p) => {
        const type = p.contentType;
        if (!new RegExp(`^${SET_MEDIA_TYPE.replace("+", "\\+")}\\s*(;|$)`, "i").test(type ?? ""))
          return {
            message: `${describeSet(p)} was pushed with ${type === undefined ? "no Content-Type" : "another Content-Type"}`,
            expected: `Content-Type: ${SET_MEDIA_TYPE}`,
            actual: type ?? "no Content-Type",
            kind: type === undefined ? "missing" : "wrong-value",
          };
        if (p.authorization !== "present")
          return {
            message: `${describeSet(p)} was pushed ${p.authorization === "absent" ? "without an Authorization header" : "with an Authorization other than the authorization_header given"}`,
            expected: "Authorization: the authorization_header the Receiver gave at stream creation",
            actual:
              p.authorization === "absent"
                ? "no Authorization header"
                : "another Authorization value (not shown)",
            kind: p.authorization === "absent" ? "missing" : "wrong-value",
          };
        const parts = p.token.trim().split(".");
        if (parts.length !== 3 || decodeSet(p.token).payload === undefined)
          return {
            message: `push #${p.seq ?? "?"}: the body is not one SET in compact form`,
            expected: "a body that is the SET itself (compact JWS)",
            actual: quote(p.token, 120),
            kind: "malformed",
          };
        return undefined;
      });
    },
  }),
];
