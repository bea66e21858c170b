import { defineCheck } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { ScimProfile } from "../profile.js";
import { delay, isOAuth, retryAfterSeconds, ScimClient } from "../scim-client.js";

const PARALLEL = 10;

/** specs/002 area C Errors and Limits: 429 with Retry-After, then recovery. */
export const rateLimitChecks = [
  defineCheck<ScimProfile>({
    id: "scim.rate-limit",
    title: "a bounded burst meets 429 with Retry-After, and waiting that long recovers",
    requirements: ["SCIM-RATE-LIMIT", "SCIM-RATE-LIMIT-RECOVERS"],
    async run(c) {
      const { burst, statedLimit, maxWaitSeconds } = c.profile.rateLimit;
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
      let sent = 0;
      while (sent < burst && !limited) {
        const n = Math.min(PARALLEL, burst - sent);
        sent += n;
        const batch = await Promise.all(
          Array.from({ length: n }, () =>
            // Only statuses count: each body is read to its end (the connection stays open for
            // the next request of the burst) and only its start is kept.
            s.call("GET", "/Users?count=1", { token, retry429: false, label: "burst", discardBody: true }),
          ),
        );
        limited = batch.find((r) => r.status === 429);
      }
      c.require("SCIM-RATE-LIMIT", limited !== undefined, {
        expected: `a 429 within a burst of ${burst} requests`,
        actual: `no 429 in ${sent} requests`,
      });
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
          "other",
        );
      }
      await delay((wait ?? 0) * 1000 + 100, c.signal);
      const after = await s.call("GET", "/Users?count=1", {
        token,
        retry429: false,
        label: "after Retry-After",
      });
      c.check("SCIM-RATE-LIMIT-RECOVERS", after.status === 200, {
        expected: `200 after waiting ${wait} s`,
        actual: String(after.status),
        res: after,
      });
    },
  }),
];
