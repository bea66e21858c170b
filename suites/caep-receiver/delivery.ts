import type { CheckContext } from "../../src/engine/check.js";
import { HarnessError } from "../../src/engine/errors.js";
import type { FindingKind } from "../../src/engine/finding-kind.js";
import { quote } from "../../src/engine/quote.js";
import type { HttpResponse } from "../../src/http/client.js";
import { DELIVERY_ERROR_CODES, SET_MEDIA_TYPE } from "../../src/protocols/caep.js";
import type { CaepReceiverProfile } from "./profile.js";
import type { ReceiverClient } from "./receiver-client.js";
import type { PollOutcome } from "../../mocks/transmitter/types.js";

type Ctx = CheckContext<CaepReceiverProfile>;

/**
 * What became of one delivered SET.
 * - push (RFC 8935 §2): `accepted` is any 2xx (whether it is 202 with an empty body is the
 *   CAEPR-PUSH-SUCCESS-202 observer's to judge), `refused` any 4xx (whether it is 400, and whether
 *   the body is the RFC's JSON error, is the observers' to judge), `other` anything else.
 * - poll (RFC 8936): `accepted` = acknowledged, `refused` = reported in setErrs and never
 *   acknowledged, `pending` = neither within `deliveryTimeoutMs`.
 */
export interface DeliveryOutcome {
  readonly kind: "accepted" | "refused" | "other" | "pending";
  /** push: the JSON `err` of the answer; poll: the setErrs `err`. */
  readonly err?: string;
  readonly description?: string;
  /** push only. */
  readonly status?: number;
  /** push only: the response (observers saw it too). */
  readonly res?: HttpResponse;
  /** poll only: what the mock saw of it. */
  readonly poll?: PollOutcome;
  /** A short human summary for findings ("400 invalid_key", "acknowledged"). */
  readonly said: string;
}

export interface DeliverOptions {
  /** What the SET is, for the evidence and findings. */
  readonly label: string;
  /** What the request is, for observers (`attack`: a SET the Receiver must refuse). */
  readonly tags?: readonly string[];
  /** push: the Content-Type to send (default application/secevent+jwt). */
  readonly contentType?: string;
  /** push: the Authorization to send; `null` sends none; default the stream's. */
  readonly authorization?: string | null;
  /** push: send this body instead of the token. */
  readonly body?: string;
  /** poll: the jti the mock files the SET under (default: read from the token). */
  readonly jti?: string;
}

const CODES: readonly string[] = DELIVERY_ERROR_CODES;

/**
 * Tags of a pushed request the Receiver must refuse. `attack`: a SET it must refuse (a forgery,
 * a defective envelope or event, garbage); `transport`: the request around a valid SET is wrong
 * (media type, size, authorization), where HTTP's own statuses (401, 403, 413, 415) are as
 * right as RFC 8935's 400.
 */
export const ATTACK = "attack";
export const TRANSPORT = "transport";

/**
 * Whether a push answer refuses the SET: any 4xx, since the SET was not taken whatever the
 * status. That a refused SET gets 400 (RFC 8935 §2.3) is one rule of its own, judged once over
 * every refused push by the CAEPR-PUSH-REFUSAL-400 observer, so a Receiver answering forgeries
 * 401 fails that rule, not every security requirement it did keep.
 */
export const isRefusal = (status: number): boolean => status >= 400 && status < 500;

/** RFC 8935 §2.3: the status of a push whose SET the Receiver refuses. */
export const REFUSAL_STATUS = 400;

/** The JSON object of a response, or an empty one. */
const object = (res: HttpResponse): Record<string, unknown> =>
  res.json !== null && typeof res.json === "object" && !Array.isArray(res.json)
    ? (res.json as Record<string, unknown>)
    : {};

/** "400 invalid_key (signature does not verify)" style summary of a push answer. */
export function saidPush(res: HttpResponse): string {
  const b = object(res);
  const err = typeof b.err === "string" ? ` ${quote(b.err, 40)}` : "";
  const desc = typeof b.description === "string" ? ` (${quote(b.description, 80)})` : "";
  const body =
    err === "" && res.text.trim() !== ""
      ? ` body ${quote(res.text, 120)}`
      : res.text.trim() === ""
        ? " (empty body)"
        : "";
  return `${res.status}${err}${desc}${body}`;
}

/** The jti of a compact SET, or undefined when it has none (or is not one). */
export function jtiOf(token: string): string | undefined {
  try {
    const p = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as unknown;
    const jti = (p as { jti?: unknown } | null)?.jti;
    return typeof jti === "string" ? jti : undefined;
  } catch {
    return undefined;
  }
}

function fromPoll(o: PollOutcome | undefined, timeoutMs: number): DeliveryOutcome {
  if (o === undefined) return { kind: "pending", said: "the mock Transmitter knows nothing of it" };
  const times = `delivered ${o.deliveries} time(s)`;
  if (o.kind === "acked")
    return { kind: "accepted", poll: o, said: `acknowledged (${times}, acknowledged ${o.acks} time(s))` };
  if (o.kind === "error")
    return {
      kind: "refused",
      poll: o,
      ...(o.err !== undefined ? { err: o.err } : {}),
      ...(o.description !== undefined ? { description: o.description } : {}),
      said: `reported in setErrs: ${quote(o.err ?? null, 40)}${o.description !== undefined ? ` (${quote(o.description, 80)})` : ""}${o.acks > 0 ? `, and acknowledged ${o.acks} time(s)` : ""}`,
    };
  return {
    kind: "pending",
    poll: o,
    said:
      o.deliveries === 0
        ? `not polled within ${timeoutMs} ms (never handed out)`
        : `neither acknowledged nor reported in setErrs within ${timeoutMs} ms (${times})`,
  };
}

function fromPush(res: HttpResponse): DeliveryOutcome {
  const b = object(res);
  const kind =
    res.status >= 200 && res.status < 300 ? "accepted" : isRefusal(res.status) ? "refused" : "other";
  return {
    kind,
    status: res.status,
    res,
    ...(typeof b.err === "string" ? { err: b.err } : {}),
    ...(typeof b.description === "string" ? { description: b.description } : {}),
    said: saidPush(res),
  };
}

/**
 * Delivers one SET to the Receiver by the profile's method: push POSTs it through the check's
 * recording client (observers see the answer), poll queues it at the mock and waits for its
 * outcome. Push-only options (contentType, authorization, body) are ignored in poll mode: the
 * checks that need them skip there.
 */
export async function deliver(k: ReceiverClient, token: string, o: DeliverOptions): Promise<DeliveryOutcome> {
  const s = await k.stream();
  if (s.delivery === "poll") {
    const jti = o.jti ?? jtiOf(token);
    if (jti === undefined) throw new Error(`deliver: a polled SET needs a jti (${o.label})`);
    const [out] = await deliverBatch(k, [{ jti, token, label: o.label }]);
    return out!;
  }
  const auth = o.authorization === undefined ? s.authorization : o.authorization;
  let res: HttpResponse;
  try {
    res = await k.c.http.post(s.endpointUrl!, {
      headers: {
        "content-type": o.contentType ?? SET_MEDIA_TYPE,
        ...(auth !== null && auth !== undefined ? { authorization: auth } : {}),
      },
      body: o.body ?? token,
      label: o.label,
      tags: ["set", ...(o.tags ?? [])],
      evidence: "if-cited",
    });
  } catch (err) {
    // The Receiver dropped the connection (reset, closed mid-answer): that is its answer to this
    // SET, judged like any other. A stopped run, an unreachable target, a timeout end the check.
    if (
      k.c.signal.aborted ||
      !(err instanceof HarnessError) ||
      err.code !== "IDC_HTTP_FAILED" ||
      /: (aborted: |unsupported scheme )/.test(err.message)
    )
      throw err;
    return { kind: "other", said: `no answer: the connection was dropped (${err.message.slice(0, 160)})` };
  }
  return fromPush(res);
}

/**
 * Delivers several SETs: poll queues them all at once and waits for every outcome (bounded by
 * deliveryTimeoutMs, plus a little per SET); push sends them one by one. Outcomes in order.
 */
export async function deliverBatch(
  k: ReceiverClient,
  items: readonly {
    readonly jti: string;
    readonly token: string;
    readonly label: string;
    readonly tags?: readonly string[];
  }[],
): Promise<DeliveryOutcome[]> {
  const s = await k.stream();
  if (s.delivery === "push") {
    const out: DeliveryOutcome[] = [];
    for (const it of items)
      out.push(await deliver(k, it.token, { label: it.label, ...(it.tags ? { tags: it.tags } : {}) }));
    return out;
  }
  await k.mock.enqueue(
    s.streamId,
    items.map((i) => ({ jti: i.jti, token: i.token })),
  );
  const timeoutMs = k.c.profile.deliveryTimeoutMs + 50 * items.length;
  const got = await k.mock.outcomes(
    s.streamId,
    items.map((i) => i.jti),
    timeoutMs,
  );
  return items.map((i) => fromPoll(got.outcomes[i.jti], timeoutMs));
}

/** How a refusal that was due fell short. */
function refusalKind(o: DeliveryOutcome): FindingKind {
  if (o.kind === "accepted") return "accepted";
  if (o.kind === "pending") return "missing";
  return "wrong-status";
}

/**
 * Decides `id`: the Receiver accepted the SET (push 2xx, poll acknowledged). Returns whether it did.
 */
export function accepted(c: Ctx, id: string, o: DeliveryOutcome, what: string): boolean {
  const poll = o.poll !== undefined;
  const ok = o.kind === "accepted";
  return c.check(id, ok, {
    ...(ok ? {} : { message: `${what}: ${o.kind === "refused" ? "refused a valid SET" : "not accepted"}` }),
    expected: `${what}: ${poll ? "acknowledged (ack)" : "accepted (202, empty body)"}`,
    actual: o.said,
    ...(o.res ? { res: o.res } : {}),
    // A valid SET refused or left unanswered: the answer is the wrong one, not an acceptance.
    kind: o.kind === "pending" ? "missing" : "wrong-status",
  });
}

/** Whether the Receiver refused the SET: push a 4xx, poll reported in setErrs and never acknowledged. */
export const isRefused = (o: DeliveryOutcome): boolean =>
  o.kind === "refused" && (o.poll === undefined || o.poll.acks === 0);

/**
 * Decides `id`: the Receiver refused the SET. push: answered with a 4xx (`isRefusal`; that it is
 * 400 is the CAEPR-PUSH-REFUSAL-400 observer's, that the body is the RFC's JSON error
 * CAEPR-PUSH-ERROR-FORMAT's, and that its err fits CAEPR-PUSH-ERR-CODE's); poll: reported in
 * setErrs and never acknowledged (RFC 8936 §2.2). A 5xx is no refusal (CAEPR-NO-5XX judges it
 * too).
 */
export function refused(c: Ctx, id: string, o: DeliveryOutcome, what: string): boolean {
  const poll = o.poll !== undefined;
  const ok = isRefused(o);
  const want = poll ? "reported in setErrs, never acknowledged" : "refused (a 4xx; RFC 8935 §2.3: 400)";
  const message = ok
    ? undefined
    : o.kind === "accepted"
      ? `${what}: accepted: the Receiver took a SET it had to refuse`
      : o.kind === "pending"
        ? `${what}: neither accepted nor refused`
        : poll
          ? `${what}: reported in setErrs but also acknowledged`
          : o.status === undefined
            ? `${what}: no answer`
            : o.status >= 500
              ? `${what}: not refused: a server error`
              : `${what}: not refused: answered ${o.status}`;
  return c.check(id, ok, {
    ...(message !== undefined ? { message } : {}),
    expected: `${what}: ${want}`,
    actual: o.kind === "accepted" ? `accepted: ${o.said}` : o.said,
    ...(o.res ? { res: o.res } : {}),
    kind: poll && o.kind === "refused" ? "accepted" : refusalKind(o),
  });
}

/** True when `err` is one of the RFC 8935 §2.4 error codes. */
export const isDeliveryErrorCode = (err: unknown): boolean => typeof err === "string" && CODES.includes(err);

/**
 * Before any negative: a valid SET must be accepted, or a refusal proves nothing (the Receiver
 * may refuse everything). Skips the check when it is not.
 */
export async function baseline(c: Ctx, k: ReceiverClient, label = "a valid SET (baseline)"): Promise<void> {
  const s = await k.set("session-revoked", { subject: await k.subjectFor("session-revoked") });
  const o = await deliver(k, s.token, { label, jti: s.jti });
  if (o.kind !== "accepted")
    c.skip(`a valid session-revoked SET was not accepted (${o.said}): see CAEPR-ACCEPT-EVENTS`, "dependency");
}
