import type { CheckContext, Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { ChallengeErrorAdvice } from "../../../src/engine/token-attacks.js";
import { bearerChallenge, bearerErrorProblem } from "../../../src/http/challenge.js";
import { isChallenge } from "../model/poll-steps.js";
import type { EndpointName, StreamClient } from "../client.js";
import type { CaepTransmitterProfile, DeliveryMethod } from "../profile.js";

export type Ctx = CheckContext<CaepTransmitterProfile>;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The JSON object of an answer, or an empty one (what is missing is then said member by member). */
export const body = (res: HttpResponse): Record<string, unknown> => (isObject(res.json) ? res.json : {});

/** What the Transmitter answered, in a few words (its body quoted, bounded). */
export const said = (res: HttpResponse): string =>
  `${res.status}${res.text === "" ? "" : ` ${quote(res.text, 160)}`}`;

/** The strings of an array member, or undefined when it is no array of strings. */
export const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;

/** Two lists of URIs hold the same members (order and repeats aside). */
export const sameSet = (a: readonly string[] | undefined, b: readonly string[]): boolean =>
  a !== undefined && new Set(a).size === new Set(b).size && b.every((x) => a.includes(x));

/** How long a change answered 202 (accepted, not yet processed) is waited for, between reads. */
const READ_BACK_INTERVAL_MS = 100;

/**
 * Reads a stream until `done` holds for its configuration or the profile's eventTimeoutMs passes
 * (a change the Transmitter answered 202 to is applied later, SSF §8.1.1.3); returns the last read.
 * Only one read is made when `wait` is false.
 */
export async function readBack(
  k: StreamClient,
  id: string,
  done: (config: Record<string, unknown>) => boolean,
  wait: boolean,
  label = "read back",
): Promise<HttpResponse> {
  const deadline = Date.now() + k.c.profile.eventTimeoutMs;
  for (;;) {
    const res = await k.read(id, { label });
    if (!wait || (res.status === 200 && done(body(res))) || Date.now() >= deadline || k.c.signal.aborted)
      return res;
    await new Promise((r) => setTimeout(r, READ_BACK_INTERVAL_MS));
  }
}

/** The stream_ids of a list answer (SSF §8.1.1.2: a JSON array of configurations). */
export function listedIds(res: HttpResponse): string[] | undefined {
  if (res.status !== 200 || !Array.isArray(res.json)) return undefined;
  return res.json
    .slice(0, 10_000)
    .filter(isObject)
    .map((s) => s.stream_id)
    .filter((id): id is string => typeof id === "string");
}

/** The delivery methods to test (the profile's, else discovery's), or a skip when there are none. */
export async function methodsOf(c: Ctx, k: StreamClient): Promise<[DeliveryMethod, ...DeliveryMethod[]]> {
  const m = await k.methods();
  if (m.length === 0)
    return c.skip(
      "not offered: the profile names no delivery method and the discovery document offers neither urn:ietf:rfc:8935 nor urn:ietf:rfc:8936",
      "not-offered",
    );
  return m as [DeliveryMethod, ...DeliveryMethod[]];
}

/** Whether the discovery document names the endpoint (a request to one it does not is not made). */
export async function offered(k: StreamClient, name: EndpointName): Promise<boolean> {
  const v = (await k.discovery()).doc[name];
  return typeof v === "string" && URL.canParse(v);
}

/**
 * The verdict on an invalid request's answer once nothing it asked for happened: 400 passes;
 * any other answer is a finding (another 4xx refuses too, but SSF's error tables give 400 alone
 * for a body that cannot be parsed or is otherwise invalid: these requirements are SHOULDs, so
 * a warning). `table` names the error table that gives the 400.
 */
export function refusedWith400(what: string, res: HttpResponse, table: string): Details | undefined {
  if (res.status === 400) return undefined;
  return {
    message: `${what} is not refused with 400`,
    expected: `400, the code ${table} (no other 4xx)`,
    actual: said(res),
    res,
    kind: res.status >= 200 && res.status < 300 ? "accepted" : "wrong-status",
  };
}

/**
 * The challenges of 401 answers (RFC 9110 §15.5.2, RFC 6750 §3): `present` (the stream
 * management or poll requirement) has each carry one; CAEPT-CHALLENGE-ERROR has a Bearer
 * challenge's error attribute as RFC 6750 §3 advises for the credential sent.
 */
export async function judgeChallenges(
  c: Ctx,
  present: string | undefined,
  refused: readonly { what: string; res: HttpResponse; challengeError?: ChallengeErrorAdvice }[],
): Promise<void> {
  if (present !== undefined)
    await c.each(present, refused, "requests refused with 401", ({ what, res }) => {
      const challenge = res.header("www-authenticate");
      return isChallenge(challenge)
        ? undefined
        : {
            message: `${what} was refused with 401 without a WWW-Authenticate challenge`,
            expected:
              "401 with WWW-Authenticate holding at least one challenge (RFC 9110 §15.5.2), here Bearer (RFC 6750 §3)",
            actual: `401, WWW-Authenticate ${quote(challenge ?? null, 120)}`,
            res,
            kind: "missing",
          };
    });
  // A 401 without a readable Bearer challenge is judged by `present` and CAEPT-CHALLENGE-SYNTAX.
  const advised = refused.filter(
    (r) => r.challengeError !== undefined && bearerChallenge(r.res.header("www-authenticate")) !== undefined,
  );
  await c.each("CAEPT-CHALLENGE-ERROR", advised, "Bearer challenges of refused credentials", (r) => {
    const challenge = r.res.header("www-authenticate");
    const problem = bearerErrorProblem(r.challengeError!, challenge);
    return problem === undefined
      ? undefined
      : {
          message: `${r.what}: ${problem}`,
          expected:
            r.challengeError === "none"
              ? "a Bearer challenge with no error attribute (the request had no usable credentials)"
              : 'a Bearer challenge with error="invalid_token"',
          actual: `WWW-Authenticate ${quote(challenge ?? null, 200)}`,
          res: r.res,
          kind: "wrong-value",
        };
  });
}
