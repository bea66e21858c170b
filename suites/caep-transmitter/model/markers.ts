import { randomBytes } from "node:crypto";
import { CAEP_EVENT_BASE, eventUri, type CaepEventName } from "../../../src/protocols/caep.js";
import { eventOf, type CollectedSet } from "../sets.js";
import { namesSubject, type SubId } from "../subjects.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Event types whose own claims can carry a marker the check chooses, so a SET can be told
 * apart from every other SET about the same subject (CAEP 1.0 §3.2: `claims` of
 * token-claims-change holds the changed claims; §3.6, §3.7: `ext_id` names a session).
 */
const MARKABLE: readonly {
  readonly name: CaepEventName;
  readonly claims: (marker: string) => Record<string, unknown>;
  readonly read: (claims: Record<string, unknown>) => unknown;
}[] = [
  {
    name: "token-claims-change",
    claims: (m) => ({ claims: { idc_marker: m } }),
    read: (c) => (isObject(c.claims) ? c.claims.idc_marker : undefined),
  },
  { name: "session-established", claims: (m) => ({ ext_id: m }), read: (c) => c.ext_id },
  { name: "session-presented", claims: (m) => ({ ext_id: m }), read: (c) => c.ext_id },
];

/** The event a check triggers, and how its trigger carries a marker (when it can). */
export interface MarkedEvent {
  readonly uri: string;
  /** The hook's `claims` for a trigger carrying `marker`; `{}` when the event type cannot carry one. */
  claims(marker: string): Record<string, unknown>;
  /** False when no event type the stream delivers can carry a marker: SETs are matched by subject, in order. */
  readonly marked: boolean;
}

/**
 * The event to trigger on a stream that delivers `delivered` (its events_delivered): the first
 * markable type it delivers, else session-revoked (or the first CAEP type it delivers) without
 * a marker.
 */
export function markedEvent(delivered: readonly string[]): MarkedEvent {
  for (const m of MARKABLE) {
    const uri = eventUri(m.name);
    if (delivered.includes(uri)) return { uri, claims: m.claims, marked: true };
  }
  const fallback =
    delivered.find((u) => u === eventUri("session-revoked")) ??
    delivered.find((u) => u.startsWith(CAEP_EVENT_BASE)) ??
    eventUri("session-revoked");
  return { uri: fallback, claims: () => ({}), marked: false };
}

/** The marker a SET's event carries, if any (read from every markable place, bounded to 200 characters). */
export function markerOf(s: CollectedSet): string | undefined {
  const ev = eventOf(s);
  if (ev === undefined || !isObject(ev.claims)) return undefined;
  for (const m of MARKABLE) {
    const v = m.read(ev.claims);
    if (typeof v === "string" && v.startsWith("idc-") && v.length <= 200) return v;
  }
  return undefined;
}

/** A fresh marker: unique within the run and across runs. */
export function freshMarker(n: number): string {
  return `idc-${n}-${randomBytes(6).toString("hex")}`;
}

/** Whether a SET is about `subject` (its sub_id names it, or a complex sub_id has it as a member). */
export const isAbout = (s: CollectedSet, subject: SubId): boolean => namesSubject(s.payload?.sub_id, subject);
