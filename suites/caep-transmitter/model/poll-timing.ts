import type { CheckContext } from "../../../src/engine/check.js";
import type { Stream, StreamClient } from "../client.js";
import type { PollAnswer, PollBody } from "../poller.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { acknowledge, jtisOf, timedPoll } from "./poll-steps.js";

type Ctx = CheckContext<CaepTransmitterProfile>;

/** Below this an answer is "at once" whatever a long poll does (a loaded machine's jitter stays under it). */
const AT_ONCE_MS = 500;

/**
 * CAEPT-POLL-RETURN-IMMEDIATELY, measured against the Transmitter itself, never a tight bound:
 * the time a plain management read takes (the round trip), the time the returnImmediately poll
 * takes beyond it, and, only when that is not clearly at once, the time a long poll is held
 * beyond it. Held about as long as a long poll (at least half of it) is a violation.
 */
export async function judgeReturnImmediately(c: Ctx, k: StreamClient, s: Stream): Promise<void> {
  const bound = Math.max(4000, c.profile.eventTimeoutMs);
  const roundTrip = async (): Promise<number> => {
    const t0 = performance.now();
    await k.read(s.id, { label: "read the stream (round trip)" });
    return performance.now() - t0;
  };
  const rtt = Math.min(await roundTrip(), await roundTrip());
  // Nothing may wait: what the stream starts with (a verification SET, say) is acknowledged, and
  // the first poll that finds nothing is the measurement.
  let ri: { a?: PollAnswer; ms: number } = { ms: 0 };
  let pending: string[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const body: PollBody = { returnImmediately: true, ...(pending.length > 0 ? { ack: pending } : {}) };
    ri = await timedPoll(c, s, body, {
      label: "poll with returnImmediately true, nothing waiting",
      timeoutMs: bound,
    });
    pending = jtisOf(ri.a);
    if (pending.length === 0) break;
  }
  if (pending.length > 0) await acknowledge(c, s, pending, "acknowledge (clean up)");
  const held = Math.max(0, ri.ms - rtt);
  // The answer's form is CAEPT-POLL-RESPONSE's; here only how soon it came.
  if ((ri.a?.sets?.length ?? 0) > 0)
    return c.skip(
      "a SET was waiting at every attempt (none was raised): nothing-waiting could not be arranged",
      "other",
    );
  if (ri.a !== undefined && held < AT_ONCE_MS) {
    c.check("CAEPT-POLL-RETURN-IMMEDIATELY", true);
    c.note(
      `returnImmediately answered in ${Math.round(ri.ms)} ms (a management read takes ${Math.round(rtt)} ms)`,
    );
    return;
  }
  const lp = await timedPoll(
    c,
    s,
    { returnImmediately: false },
    { label: "long poll (returnImmediately false), nothing waiting", timeoutMs: bound },
  );
  // A long poll that ended because a SET came says nothing of how long it would be held.
  const cut = lp.a?.sets !== undefined && lp.a.sets.length > 0;
  const longHeld = cut ? bound - rtt : Math.max(0, lp.ms - rtt);
  if (cut && lp.a !== undefined) await acknowledge(c, s, jtisOf(lp.a), "acknowledge (clean up)");
  const ok = ri.a !== undefined && held < Math.max(AT_ONCE_MS, longHeld / 2);
  c.check("CAEPT-POLL-RETURN-IMMEDIATELY", ok, {
    message:
      ri.a === undefined
        ? `a poll with returnImmediately true was not answered within ${bound} ms`
        : `a poll with returnImmediately true was held ${Math.round(held)} ms with nothing waiting, about as long as a long poll (${Math.round(longHeld)} ms)`,
    expected: `an answer at once (under ${AT_ONCE_MS} ms, or under half of the ${Math.round(longHeld)} ms a long poll is held beyond a round trip; RFC 8936 §2.2)`,
    actual: `returnImmediately true: ${ri.a === undefined ? `no answer in ${bound} ms` : `${Math.round(ri.ms)} ms`}; returnImmediately false: ${lp.a === undefined ? `no answer in ${bound} ms` : `${Math.round(lp.ms)} ms`}; a management read: ${Math.round(rtt)} ms`,
    ...(ri.a !== undefined ? { res: ri.a.res } : {}),
    kind: "wrong-value",
  });
  if (ok)
    c.note(
      `returnImmediately answered in ${Math.round(ri.ms)} ms; a long poll was held ${Math.round(lp.ms)} ms`,
    );
}
