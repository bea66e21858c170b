import { randomBytes } from "node:crypto";
import type { CheckContext } from "../../../src/engine/check.js";
import { HarnessError } from "../../../src/engine/errors.js";
import { quote } from "../../../src/engine/quote.js";
import { CAEP_EVENT_BASE } from "../../../src/protocols/caep.js";
import { StreamClient, type Stream } from "../client.js";
import { poll, type PollAnswer, type PollBody, type PollOptions, type PolledSet } from "../poller.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { eventOf, fromPoll } from "../sets.js";
import type { SubId } from "../subjects.js";
import { freshMarker, isAbout, markedEvent, markerOf } from "./markers.js";

/**
 * The steps the RFC 8936 poll checks (checks/poll.ts) are built from: a poll stream of their
 * own, events raised about a fresh subject of it, timed polls, and polls until the events are
 * in (long polls while nothing comes, never sleeps).
 */

type Ctx = CheckContext<CaepTransmitterProfile>;

/**
 * A poll stream for one check, with the client that made it. Skips ("not offered") unless poll
 * delivery is tested: the profile's delivery list, else what the discovery document offers
 * (urn:ietf:rfc:8936).
 */
export async function pollStream(c: Ctx, label: string): Promise<{ k: StreamClient; s: Stream }> {
  const k = new StreamClient(c);
  if (!(await k.methods()).includes("poll"))
    c.skip(
      c.profile.delivery !== undefined
        ? "not offered: the profile does not test poll delivery (suites.caep-transmitter.delivery)"
        : "not offered: delivery_methods_supported does not name urn:ietf:rfc:8936",
      "not-offered",
    );
  return { k, s: await k.open("poll", { label }) };
}

/** Events raised about one fresh subject of a stream, each carrying its marker where the type can. */
export interface Raised {
  readonly subject: SubId;
  readonly markers: string[];
}

/** A fresh subject added to the stream, and `n` events about it through the hook (each queued once the hook answers). */
export async function raise(k: StreamClient, s: Stream, n: number, label: string): Promise<Raised> {
  const subject = await k.subscribe(s, `${label}: add subject`);
  const markers: string[] = [];
  await more(k, s, { subject, markers }, n, label);
  return { subject, markers };
}

/** `n` more events about the subject already raised about. */
export async function more(
  k: StreamClient,
  s: Stream,
  r: Raised,
  n: number,
  label: string,
): Promise<string[]> {
  const event = markedEvent(s.delivered);
  const added: string[] = [];
  for (let i = 0; i < n; i++) {
    const marker = freshMarker(r.markers.length + 1);
    await k.trigger(event.uri, r.subject, { claims: event.claims(marker), label: `${label}: trigger event` });
    r.markers.push(marker);
    added.push(marker);
  }
  return added;
}

/**
 * Whether a polled SET is one of the raised events: by its marker when it carries one, else by
 * its sub_id naming the subject, else (no sub_id at all: the subject is elsewhere, which the SET
 * checks judge) by being a CAEP event on this stream of the check's own.
 */
export function isMine(s: Stream, r: Raised, p: PolledSet): boolean {
  const set = fromPoll(p, s.id);
  const marker = markerOf(set);
  if (marker !== undefined) return r.markers.includes(marker);
  if (isAbout(set, r.subject)) return true;
  return set.payload?.sub_id === undefined && (eventOf(set)?.uri.startsWith(CAEP_EVENT_BASE) ?? false);
}

/** The marker a polled SET carries, if any. */
export const markerIn = (s: Stream, p: PolledSet): string | undefined => markerOf(fromPoll(p, s.id));

/** A poll and how long it took; an answer that did not come within `timeoutMs` is `timedOut`. */
export async function timedPoll(
  c: Ctx,
  s: Stream,
  body: PollBody,
  o: PollOptions & { timeoutMs: number },
): Promise<{ a?: PollAnswer; ms: number }> {
  const t0 = performance.now();
  try {
    const a = await poll(c, s, body, o);
    return { a, ms: performance.now() - t0 };
  } catch (e) {
    if (e instanceof HarnessError && e.code === "IDC_HTTP_TIMEOUT") return { ms: performance.now() - t0 };
    throw e;
  }
}

/** One poll request of a sequence and its answer (undefined: a long poll not answered in time). */
export interface Step {
  readonly body: PollBody;
  readonly a?: PollAnswer;
}

export interface PollForOptions {
  /** Done once this holds for the distinct SETs of the raised events received so far. */
  readonly enough: (mine: readonly PolledSet[]) => boolean;
  /** Acknowledge each answer's SETs in the next request. */
  readonly ack: boolean;
  readonly maxEvents?: number;
  readonly label: string;
  /** Bound of the whole sequence; default the profile's eventTimeoutMs. */
  readonly timeoutMs?: number;
  /** Acknowledge these in the first request. */
  readonly pending?: readonly string[];
}

/** Most polls one sequence makes, whatever the time bound. */
const MAX_POLLS = 40;

/**
 * Polls until `enough` holds for the raised events received (distinct by jti, first seen
 * first) or the bound passes. A request after an empty answer is a long poll (returnImmediately
 * false, bounded by the time left): the Transmitter answers when a SET arrives. Stops at an
 * answer that is no poll response (the caller decides what that means). Returns every step, the
 * raised events' SETs, and the jtis handed out and not acknowledged yet.
 */
export async function pollFor(
  c: Ctx,
  s: Stream,
  r: Raised,
  o: PollForOptions,
): Promise<{ steps: Step[]; mine: PolledSet[]; pending: string[] }> {
  const deadline = Date.now() + (o.timeoutMs ?? c.profile.eventTimeoutMs);
  const steps: Step[] = [];
  const mine = new Map<string, PolledSet>();
  let pending = [...(o.pending ?? [])];
  let wait = false;
  for (let i = 0; i < MAX_POLLS && !c.signal.aborted; i++) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const body: PollBody = {
      returnImmediately: !wait,
      ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
      ...(pending.length > 0 ? { ack: pending } : {}),
    };
    const t = await timedPoll(c, s, body, {
      label: `${o.label}${wait ? " (long poll)" : ""}`,
      timeoutMs: wait ? left : Math.min(left + 1000, c.profile.eventTimeoutMs + 1000),
      evidence: "if-cited",
    });
    steps.push({ body, ...(t.a !== undefined ? { a: t.a } : {}) });
    if (t.a === undefined) break;
    if (t.a.sets === undefined) break;
    if (o.ack) pending = [];
    for (const p of t.a.sets) {
      if (o.ack) pending.push(p.jti);
      if (isMine(s, r, p) && !mine.has(p.jti)) mine.set(p.jti, p);
    }
    if (o.enough([...mine.values()])) break;
    wait = t.a.sets.length === 0 && t.a.moreAvailable !== true;
  }
  return { steps, mine: [...mine.values()], pending: o.ack ? pending : [] };
}

/** An acknowledge-only request (RFC 8936 §2.2: maxEvents 0) for what is still pending. */
export async function acknowledge(c: Ctx, s: Stream, jtis: readonly string[], label: string): Promise<Step> {
  const body: PollBody = { ack: [...jtis], maxEvents: 0, returnImmediately: true };
  return { body, a: await poll(c, s, body, { label }) };
}

/** An Authorization value of a token the Transmitter never issued. */
export const strangerToken = (): string => `idc-unknown-${randomBytes(18).toString("base64url")}`;

/** RFC 9110 §11.6.1: a challenge starts with an auth-scheme token. */
export const isChallenge = (v: string | undefined): boolean =>
  v !== undefined && /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s|,|$)/.test(v);

/** What one answer a poll probe must not be: the SETs it handed out, or undefined. */
export const handedOut = (a: PollAnswer | undefined): number => a?.sets?.length ?? 0;

/** The member names (jtis) of an answer's SETs. */
export const jtisOf = (a: PollAnswer | undefined): string[] => (a?.sets ?? []).map((p) => p.jti);

/** What an answer was, in a few words (its body quoted, bounded). */
export const said = (a: PollAnswer | undefined): string =>
  a === undefined
    ? "no answer in time"
    : `${a.res.status}${a.sets !== undefined ? ` with ${a.sets.length} SET(s)` : a.res.text ? ` ${quote(a.res.text, 100)}` : ""}`;
