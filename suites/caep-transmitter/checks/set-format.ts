import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { judgeSet, type SetJudgement } from "../../../mocks/receiver/validator.js";
import type { SetRule } from "../../../mocks/receiver/types.js";
import { StreamClient } from "../client.js";
import { polled, slots as ledgerSlots, MAX_POLLED } from "../ledger.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { eventNameOf } from "../../../src/protocols/caep.js";
import { describeSet, eventsOf, fromPoll, fromPush, transmitterKeys, type CollectedSet } from "../sets.js";

/** The requirement each rule of the validator decides (mocks/receiver/validator.ts). */
const RULES: Record<SetRule, string> = {
  malformed: "CAEPT-SET-SIGNATURE",
  signature: "CAEPT-SET-SIGNATURE",
  typ: "CAEPT-SET-TYP",
  iss: "CAEPT-SET-ISS",
  aud: "CAEPT-SET-AUD",
  iat: "CAEPT-SET-IAT",
  jti: "CAEPT-SET-JTI",
  "jti-unique": "CAEPT-SET-JTI",
  sub: "CAEPT-SET-NO-SUB",
  exp: "CAEPT-SET-NO-EXP",
  sub_id: "CAEPT-SET-SUB-ID",
  events: "CAEPT-SET-EVENT-CLAIMS",
  "event-claims": "CAEPT-SET-EVENT-CLAIMS",
  "reason-maps": "CAEPT-SET-REASON-MAPS",
  "one-event": "CAEPT-SET-EVENT",
  txn: "CAEPT-SET-TXN",
};
const REQUIREMENTS = [...new Set(Object.values(RULES))];

/** What each requirement expects of a SET, for its findings. */
const EXPECTED: Record<string, string> = {
  "CAEPT-SET-SIGNATURE": "a compact JWS signed with a key published at jwks_uri (by its kid)",
  "CAEPT-SET-TYP": "JOSE header typ secevent+jwt",
  "CAEPT-SET-ISS": "iss identical to the Transmitter's issuer",
  "CAEPT-SET-AUD": "aud: the aud of the stream the SET arrived on",
  "CAEPT-SET-IAT": "iat: a NumericDate, not later than the SET's arrival (60 s skew)",
  "CAEPT-SET-JTI": "jti: a non-empty string no other SET of the run carries",
  "CAEPT-SET-NO-SUB": "no JWT sub claim",
  "CAEPT-SET-NO-EXP": "no exp claim",
  "CAEPT-SET-SUB-ID": "a top-level sub_id of a known subject identifier format",
  "CAEPT-SET-EVENT-CLAIMS":
    "events: one event under a CAEP or SSF event type URI, with its required claims and values",
  "CAEPT-SET-REASON-MAPS": "reason_admin and reason_user as maps from language tag to message",
  "CAEPT-SET-EVENT": "events holding exactly one event",
  "CAEPT-SET-TXN": "txn: a non-empty string",
};

/** Whether a SET's events carry reason_admin or reason_user. */
function hasReason(s: CollectedSet): boolean {
  const ev = s.payload?.events;
  if (ev === null || typeof ev !== "object" || Array.isArray(ev)) return false;
  return Object.values(ev as Record<string, unknown>).some(
    (x) => x !== null && typeof x === "object" && ("reason_admin" in x || "reason_user" in x),
  );
}

/** The claims of a SET as a finding shows them (never its signature). */
const claims = (s: CollectedSet): string => quote({ header: s.header, payload: s.payload }, 600);

/**
 * RFC 8417, SSF 1.0 §4 and CAEP 1.0 §2-3, judged on every SET the run received: every push the
 * mock Receiver recorded (every slot, every check) and every SET any check polled (the run's
 * ledger), with one validator (mocks/receiver/validator.ts) and one jti memory for the whole run.
 * Runs after every other check (a `.last` file).
 */
export const setChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.every-set",
    title:
      "every SET the run received, pushed or polled, is a signed SET of SSF: typ, iss, aud, iat, a unique jti, no sub, no exp, sub_id, one event with its claims, reason maps, txn (RFC 8417; SSF 1.0 §4; CAEP 1.0)",
    requirements: REQUIREMENTS,
    timeoutMs: 120_000,
    async run(c) {
      const k = new StreamClient(c);
      const keys = await transmitterKeys(k);
      if (keys === undefined)
        c.partly(
          "CAEPT-SET-SIGNATURE",
          "not exercised: the Transmitter's jwks_uri gave no key set, so no signature could be verified (see CAEPT-DISC-JWKS)",
          "dependency",
        );
      const known = await ledgerSlots(k.provided.runDir);
      const stats = await k.mock.stats();
      const sets: { set: CollectedSet; audience?: unknown }[] = [];
      let evicted = 0;
      for (const slot of stats.slots) {
        evicted += slot.evicted;
        const e = known.get(slot.slot);
        for (const p of await k.mock.sets(slot.slot, 0))
          // A push the mock refused unread (401 without the authorization) is still a SET received.
          sets.push({
            set: fromPush(p, e?.streamId ?? `(slot ${slot.slot})`),
            ...(e?.audience !== undefined ? { audience: e.audience } : {}),
          });
      }
      const p = await polled(k.provided.runDir);
      for (const e of p.entries)
        sets.push({
          set: fromPoll({ jti: "", token: e.token, at: e.at }, e.streamId),
          ...(e.audience !== undefined ? { audience: e.audience } : {}),
        });
      sets.sort((a, b) => a.set.at - b.set.at);
      c.note(
        `judged ${sets.length} SET(s): ${sets.length - p.entries.length} pushed, ${p.entries.length} polled`,
      );
      const unjudged = evicted + Math.max(0, p.total - MAX_POLLED);
      if (unjudged > 0)
        for (const r of REQUIREMENTS)
          c.partly(
            r,
            `${unjudged} SET(s) of the run were beyond the bounded logs and were not judged`,
            "other",
          );

      // The rules about CAEP event claims speak of CAEP events: SETs of verification only leave
      // them unexercised, not met.
      const caep = sets.filter(({ set }) => eventsOf(set).some((u) => eventNameOf(u) !== undefined));
      const why = c.profile.hooks.trigger === undefined ? "needs-hook" : "other";
      if (caep.length === 0)
        for (const r of ["CAEPT-SET-EVENT-CLAIMS", "CAEPT-SET-REASON-MAPS"])
          c.partly(
            r,
            `not exercised: no SET of the run carried a CAEP event${why === "needs-hook" ? " (the profile gives no hooks.trigger to make the Transmitter emit one)" : ""}`,
            why,
          );
      else if (!caep.some(({ set }) => hasReason(set)))
        c.partly(
          "CAEPT-SET-REASON-MAPS",
          "not observed: no CAEP event of the run carried reason_admin or reason_user",
          "other",
        );

      // One jti memory for the run: the same SET delivered again (a retry, an unacknowledged
      // poll) is no reuse; another SET under a jti seen before is.
      const seenJtis = new Map<string, string>();
      const judged: { set: CollectedSet; j: SetJudgement }[] = [];
      for (const { set, audience } of sets) {
        const aud =
          typeof audience === "string"
            ? audience
            : Array.isArray(audience) && audience.every((a) => typeof a === "string")
              ? (audience as string[])
              : undefined;
        const j = await judgeSet(set.token, {
          issuer: c.profile.baseUrl,
          keys: keys ?? null,
          ...(aud !== undefined ? { audience: aud } : {}),
          seenJtis,
          now: set.at,
        });
        judged.push({ set, j });
      }
      for (const r of REQUIREMENTS) {
        await c.each(r, judged, "SETs received", ({ set, j }) => {
          const mine = j.problems.filter((x) => RULES[x.rule] === r);
          if (mine.length === 0) return undefined;
          return {
            message: `${describeSet(set)} on stream ${quote(set.streamId, 80)}: ${mine.map((x) => x.message).join("; ")}`,
            expected: EXPECTED[r] ?? r,
            actual: claims(set),
            kind: mine.some((x) => x.rule === "malformed")
              ? "malformed"
              : mine.every((x) => / is missing| has no /.test(x.message))
                ? "missing"
                : "wrong-value",
          };
        });
      }
    },
  }),
];
