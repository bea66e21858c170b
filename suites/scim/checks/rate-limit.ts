import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { HarnessError } from "../../../src/engine/errors.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { ScimProfile } from "../profile.js";
import { delay, isOAuth, retryAfterSeconds, ScimClient } from "../scim-client.js";

/** What the burst achieved: when each request was sent, and whether a 429 came. */
export interface Burst {
  /** Send times of the requests, in ms, ascending. */
  readonly sentAt: readonly number[];
  readonly limited: boolean;
}

/**
 * The most requests sent within any `windowMs` (sliding over the send times). A limit of L
 * requests per window is exceeded only if more than L went out within one window.
 */
export function peakInWindow(sentAt: readonly number[], windowMs: number): number {
  let peak = 0;
  let from = 0;
  for (let i = 0; i < sentAt.length; i++) {
    while ((sentAt[i] ?? 0) - (sentAt[from] ?? 0) >= windowMs) from++;
    peak = Math.max(peak, i - from + 1);
  }
  return peak;
}

/**
 * Whether a burst that met no 429 proves the target has no limit: only if it went over the
 * limit the profile states (more than `statedLimit` within `windowSeconds`) or, without a
 * stated limit, if the whole burst went out within `windowSeconds`. Otherwise the machine or
 * the network was too slow for the burst to mean anything: `undefined`, with what it reached.
 */
export function burstVerdict(
  b: Burst,
  o: { burst: number; statedLimit?: number | undefined; windowSeconds: number },
): { decided: boolean; reached: string; bar: string } {
  const windowMs = o.windowSeconds * 1000;
  const peak = peakInWindow(b.sentAt, windowMs);
  const first = b.sentAt[0] ?? 0;
  const span = ((b.sentAt[b.sentAt.length - 1] ?? first) - first) / 1000;
  const rate = span > 0 ? Math.round(b.sentAt.length / span) : b.sentAt.length;
  const per = `${o.windowSeconds} s`;
  const reached = `${b.sentAt.length} requests sent over ${span.toFixed(2)} s (about ${rate} a second), at most ${peak} within any ${per}`;
  if (o.statedLimit !== undefined)
    return {
      decided: peak > o.statedLimit,
      reached,
      bar: `more than the stated limit of ${o.statedLimit} within ${per}`,
    };
  return { decided: peak >= o.burst, reached, bar: `all ${o.burst} requests within ${per}` };
}

/** How the burst is sent, for the findings: a user must be able to tell what was tried. */
const how = (p: ScimProfile["rateLimit"]): string =>
  `${p.burst} GET /Users?count=1, ${p.parallel} in flight at a time`;

const HELP =
  "raise suites.scim.rateLimit.burst above it, or set rateLimit.statedLimit (and windowSeconds) to it";

/** Waits out a 429 (bounded by maxWaitSeconds), so nothing after the check meets the burst's limit. */
async function quiet(c: CheckContext<ScimProfile>, s: ScimClient, token: string): Promise<void> {
  const until = Date.now() + c.profile.rateLimit.maxWaitSeconds * 1000;
  for (let i = 0; i < 5 && Date.now() < until; i++) {
    const res = await s.call("GET", "/Users?count=1", {
      token,
      retry429: false,
      label: "wait out the limit",
    });
    if (res.status !== 429) return;
    const wait = Math.min(retryAfterSeconds(res.header("retry-after")) ?? 1, (until - Date.now()) / 1000);
    if (wait <= 0) break;
    await delay(wait * 1000 + 100, c.signal);
  }
  c.note(`the provider still answered 429 at the end of the check; later requests may meet the limit`);
}

/**
 * specs/002 area C Errors and Limits: 429 with Retry-After, then recovery. The check is in its
 * own `*.last.test.ts` section: it runs after every other check, alone, so its burst can
 * throttle no one else; and it waits out the limit before it ends.
 */
export const rateLimitChecks = [
  defineCheck<ScimProfile>({
    id: "scim.rate-limit",
    title: "a bounded burst meets 429 with Retry-After, and waiting that long recovers",
    requirements: ["SCIM-RATE-LIMIT", "SCIM-RATE-LIMIT-RECOVERS"],
    async run(c) {
      const p = c.profile.rateLimit;
      const { burst, statedLimit, maxWaitSeconds } = p;
      if (statedLimit !== undefined && statedLimit >= burst) {
        return c.skip(
          `the profile states a limit of ${statedLimit} requests, at or above the burst of ${burst}: raise suites.scim.rateLimit.burst to observe it`,
          "not-declared",
        );
      }
      const s = new ScimClient(c);
      // A token of its own (with OAuth), so the burst throttles only this check.
      const token = isOAuth(c.profile) ? await s.token(true) : await s.token();
      let limited: HttpResponse | undefined;
      let recovered = false;
      const sentAt: number[] = [];
      try {
        while (sentAt.length < burst && !limited) {
          const n = Math.min(p.parallel, burst - sentAt.length);
          const batch = await Promise.all(
            Array.from({ length: n }, () => {
              sentAt.push(performance.now());
              // Only statuses count: each body is read to its end (the connection stays open
              // for the next request of the burst) and only its start is kept.
              return s.call("GET", "/Users?count=1", {
                token,
                retry429: false,
                label: "burst",
                discardBody: true,
              });
            }),
          );
          limited = batch.find((r) => r.status === 429);
        }
        if (!limited) {
          const v = burstVerdict({ sentAt, limited: false }, p);
          if (!v.decided) {
            c.skipOnly(
              "SCIM-RATE-LIMIT-RECOVERS",
              "no 429 was met, so there was nothing to recover from",
              "dependency",
            );
            throw new HarnessError(
              "IDC_UNDECIDABLE",
              `no 429, but the burst was too slow to judge: ${v.reached}; it needed ${v.bar}. Run it on a less loaded machine or nearer the provider, or raise rateLimit.parallel; if the provider's limit is higher, ${HELP}`,
            );
          }
          c.require("SCIM-RATE-LIMIT", false, {
            expected: `a 429 within a burst of ${how(p)}`,
            actual: `no 429: ${v.reached}, which is ${v.bar}. If the provider's documented limit is higher, ${HELP}`,
          });
        }
        const ra = limited?.header("retry-after");
        const wait = retryAfterSeconds(ra);
        c.require("SCIM-RATE-LIMIT", wait !== undefined, {
          expected: "a Retry-After header (seconds or an HTTP date)",
          actual: ra ?? "(absent)",
          ...(limited ? { res: limited } : {}),
        });
        if ((wait ?? 0) > maxWaitSeconds) {
          return c.skip(
            `Retry-After is ${wait} s, longer than suites.scim.rateLimit.maxWaitSeconds (${maxWaitSeconds} s)`,
            "not-exercised",
          );
        }
        await delay((wait ?? 0) * 1000 + 100, c.signal);
        const after = await s.call("GET", "/Users?count=1", {
          token,
          retry429: false,
          label: "after Retry-After",
        });
        recovered = after.status === 200;
        c.check("SCIM-RATE-LIMIT-RECOVERS", recovered, {
          expected: `200 after waiting ${wait} s`,
          actual: String(after.status),
          res: after,
        });
      } finally {
        if (limited && !recovered && !c.signal.aborted) await quiet(c, s, token).catch(() => undefined);
      }
    },
  }),
];
