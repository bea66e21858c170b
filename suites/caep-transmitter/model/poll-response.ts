import { defineObserver } from "../../../src/engine/observer.js";
import { quote } from "../../../src/engine/quote.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { decodeSet } from "../sets.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * RFC 8936 §2.3 and §2 (JSON, application/json): what is wrong with a 200 poll answer, member by
 * member (at most 1000 SETs decoded). Used by the check and by the every-answer observer.
 */
export function pollResponseProblems(a: {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly json: unknown;
  readonly jsonError: string | undefined;
}): string[] {
  if (a.status !== 200) return [`answered ${a.status}, not 200`];
  const out: string[] = [];
  const type = (a.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json")
    out.push(`Content-Type ${quote(a.contentType ?? null, 80)}, not application/json`);
  if (a.jsonError !== undefined) return [...out, `the body is not JSON (${a.jsonError})`];
  if (!isObject(a.json)) return [...out, `the body is ${quote(a.json, 80)}, not a JSON object`];
  const sets = a.json.sets;
  if (!isObject(sets))
    out.push(
      `"sets" is ${sets === undefined ? "missing" : `${quote(sets, 80)}, not a JSON object keyed by jti`}`,
    );
  else
    for (const [name, v] of Object.entries(sets).slice(0, 1000)) {
      if (typeof v !== "string") {
        out.push(`sets[${quote(name, 60)}] is ${quote(v, 60)}, not a SET as a JSON string`);
        break;
      }
      const jti = decodeSet(v).payload?.jti;
      if (jti !== name) {
        out.push(
          `sets[${quote(name, 60)}] holds a SET whose jti is ${quote(jti, 60)}: the member name must be its jti`,
        );
        break;
      }
    }
  if ("moreAvailable" in a.json && typeof a.json.moreAvailable !== "boolean")
    out.push(`moreAvailable is ${quote(a.json.moreAvailable, 60)}, not a boolean`);
  return out;
}

/**
 * RFC 8936 §2.3 on every successful poll answer of the run (every check's polls, the lifecycle
 * model's included), not on one probe.
 */
export const pollObservers = [
  defineObserver<CaepTransmitterProfile>({
    id: "caep-transmitter.observe-poll-response",
    title:
      "every 200 answer of a poll endpoint is application/json with a JSON object whose sets maps each SET's jti to the SET as a string, and moreAvailable a boolean when present (RFC 8936 §2.3)",
    requirement: "CAEPT-POLL-RESPONSE",
    notApplicable: (p) =>
      p.delivery !== undefined && !p.delivery.includes("poll")
        ? "the profile does not test poll delivery (suites.caep-transmitter.delivery)"
        : undefined,
    applies: (ex) => ex.method === "POST" && ex.tags.includes("poll") && ex.status === 200,
    judge: (ex) => {
      const p = pollResponseProblems({
        status: ex.status,
        contentType: ex.header("content-type"),
        json: ex.json,
        jsonError: ex.jsonError,
      });
      return p.length === 0
        ? undefined
        : {
            message: `a poll answer is not what RFC 8936 §2.3 gives: ${p[0]}`,
            expected: '200, application/json, {"sets": {"<jti>": "<SET>"}, "moreAvailable"?: boolean}',
            actual: p.join("; "),
            kind: "malformed",
          };
    },
  }),
];
