import { setTimeout as sleep } from "node:timers/promises";
import type { CheckContext } from "../../../src/engine/check.js";
import { HarnessError, SetupError } from "../../../src/engine/errors.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { CaepEventName } from "../../../src/protocols/caep.js";
import { tokenAttacks } from "../../../src/engine/token-attacks.js";
import { ATTACK, deliver, type DeliveryOutcome } from "../delivery.js";
import type { CaepReceiverProfile } from "../profile.js";
import type { ReceiverClient } from "../receiver-client.js";
import type { FreshSubject, SubId } from "../subjects.js";

/**
 * What the Receiver's sessions and user access look like from outside: the profile's session
 * hook makes a subject active, its probes (`sessionActive`, `subjectAccess`) read it back (2xx
 * while it can act, 401/403/404 once it cannot), and the effect checks (checks/effects.ts) wait
 * on them with a deadline, the only way an effect of a SET can be seen.
 */

export type Ctx = CheckContext<CaepReceiverProfile>;
export type ProbeName = "sessionActive" | "subjectAccess";
export type Form = CaepReceiverProfile["effects"]["subjectFormats"][number];
export type Reducing = CaepReceiverProfile["effects"]["accessReducing"][number];

const ENDED = [401, 403, 404];
export const ended = (res: HttpResponse): boolean => ENDED.includes(res.status);
export const active = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300;
export const shown = (res: HttpResponse): string =>
  `${res.status}${res.text.trim() === "" ? "" : ` ${quote(res.text, 120)}`}`;

/** Reads of a probe that must keep its answer: this many, spaced out (after the effect was confirmed). */
export const STEADY_READS = 3;
const STEADY_GAP_MS = 40;
/** Probe polling: the first gap and the largest (bounded, growing). */
const FIRST_GAP_MS = 15;
export const MAX_GAP_MS = 250;

/** The subject a SET names under one of the profile's forms (effects.subjectFormats). */
export function subjectIn(form: Form, s: FreshSubject): SubId {
  switch (form) {
    case "complex":
      return s.complex;
    case "email":
      return s.user;
    case "iss_sub":
      return s.issSub;
    case "opaque":
      return s.session;
  }
}

/**
 * Per access-reducing event (CAEP 1.0 §3.3, §3.4, §3.5, §3.8): claims that reduce a user's
 * access, and claims of the same type that say the opposite and must not.
 */
export const REDUCING: Record<
  Reducing,
  {
    readonly reduce: Record<string, unknown>;
    readonly reduceIs: string;
    readonly keep: Record<string, unknown>;
    readonly keepIs: string;
  }
> = {
  "credential-change": {
    reduce: { credential_type: "password", change_type: "revoke" },
    reduceIs: "change_type revoke",
    keep: { credential_type: "fido2-roaming", change_type: "create" },
    keepIs: "change_type create",
  },
  "assurance-level-change": {
    reduce: {
      namespace: "NIST-AAL",
      current_level: "nist-aal1",
      previous_level: "nist-aal2",
      change_direction: "decrease",
    },
    reduceIs: "change_direction decrease",
    keep: {
      namespace: "NIST-AAL",
      current_level: "nist-aal2",
      previous_level: "nist-aal1",
      change_direction: "increase",
    },
    keepIs: "change_direction increase",
  },
  "device-compliance-change": {
    reduce: { previous_status: "compliant", current_status: "not-compliant" },
    reduceIs: "compliant to not-compliant",
    keep: { previous_status: "not-compliant", current_status: "compliant" },
    keepIs: "not-compliant to compliant",
  },
  "risk-level-change": {
    reduce: {
      principal: "USER",
      current_level: "HIGH",
      previous_level: "LOW",
      risk_reason: "PASSWORD_FOUND_IN_DATA_BREACH",
    },
    reduceIs: "current_level HIGH",
    keep: { principal: "USER", current_level: "LOW", previous_level: "MEDIUM" },
    keepIs: "current_level LOW",
  },
};

/** Whether the profile gives the probe (`false`: declared as nothing to probe). */
export const hasProbe = (c: Ctx, name: ProbeName): boolean => {
  const p = c.profile.probes[name];
  return p !== undefined && p !== false;
};

/** The profile's probe for `value` (a session id or a user's email). */
export async function probe(c: Ctx, name: ProbeName, value: string, label: string): Promise<HttpResponse> {
  const p = c.profile.probes[name];
  if (p === undefined || p === false)
    return c.skip(
      p === false
        ? `not offered: the profile declares there is nothing to probe (suites.caep-receiver.probes.${name}: false)`
        : `needs probe: suites.caep-receiver.probes.${name}`,
      p === false ? "not-offered" : "needs-probe",
    );
  const placeholder = name === "sessionActive" ? "{session}" : "{user}";
  return c.http.send({
    method: p.method ?? "GET",
    url: p.url.replaceAll(placeholder, encodeURIComponent(value)),
    headers: p.headers ?? {},
    label,
    tags: ["probe"],
    evidence: "if-cited",
  });
}

/**
 * The probe must answer 2xx for a subject the hook just made active, or it can show no change:
 * the profile's probe (or hook) is wrong, not the Receiver. A hook may make the subject active
 * a moment after it answers (an eventually consistent store), so the probe is read until it
 * shows it, within effects.timeoutMs (bounded, growing gaps). Found once, the problem stops
 * every later probe of the run.
 */
export async function mustBeActive(c: Ctx, name: ProbeName, value: string, what: string): Promise<void> {
  await c.setup(`caep-receiver.probes.${name}`, async () => {
    const since = Date.now();
    const deadline = since + c.profile.effects.timeoutMs;
    let gap = FIRST_GAP_MS;
    for (let reads = 1; ; reads++) {
      const res = await probe(c, name, value, `${name} probe: ${what} (before, read ${reads})`);
      if (active(res)) return;
      const now = Date.now();
      if (now >= deadline)
        throw new SetupError(
          `suites.caep-receiver.probes.${name}`,
          `the probe answered ${res.status} (${quote(res.text, 120)}) for ${what}, made active by hooks.session, ${reads} time(s) over ${now - since} ms; it must answer 2xx while ${name === "sessionActive" ? "the session is valid" : "the user has access"}, and 401, 403 or 404 after`,
        );
      await pause(c, Math.min(gap, deadline - now));
      gap = Math.min(gap * 2, MAX_GAP_MS);
    }
  });
}

/** A fresh user with an active session (the profile's hook), or a skip saying the hook is missing. */
export async function freshSession(c: Ctx, k: ReceiverClient, label: string): Promise<FreshSubject> {
  const s = await k.session(`session hook (${label})`);
  if (s === undefined)
    return c.skip(
      "needs hook: suites.caep-receiver.hooks.session (POST {user, session}) makes the sessions the probes read",
      "needs-hook",
    );
  return s;
}

/** A second active session of a user the hook already made (same hook, same setup key). */
export async function secondSession(c: Ctx, k: ReceiverClient, of: FreshSubject): Promise<FreshSubject> {
  const hook = c.profile.hooks.session!;
  const other = k.subjects.fresh();
  const session: SubId = { format: "opaque", id: other.sessionId };
  await c.setup("caep-receiver.hooks.session", async () => {
    const res = await c.http.post(hook.url, {
      json: { user: of.user, session },
      ...(hook.headers ? { headers: hook.headers } : {}),
      label: "session hook (a second session of the same user)",
      tags: ["hook"],
    });
    if (res.status < 200 || res.status > 299)
      throw new SetupError(
        "suites.caep-receiver.hooks.session",
        `the hook answered ${res.status} (${quote(res.text, 120)}) for a second session of a user; it must answer 2xx once the session is active`,
      );
  });
  return {
    ...of,
    sessionId: other.sessionId,
    session,
    complex: { format: "complex", user: of.user, session },
  };
}

export interface Sent {
  readonly label: string;
  readonly outcome: DeliveryOutcome;
  /** When the Receiver accepted it (the clock of an effect starts there). */
  readonly at: number;
}

/** Signs and delivers one valid SET of `event` about `subject`. */
export async function send(
  k: ReceiverClient,
  event: CaepEventName,
  subject: SubId,
  label: string,
  claims?: Record<string, unknown>,
): Promise<Sent> {
  const s = await k.set(event, { subject, ...(claims ? { claims } : {}) });
  const outcome = await deliver(k, s.token, { label, jti: s.jti });
  return { label, outcome, at: Date.now() };
}

/**
 * SETs the Receiver must refuse, as a session-revoked for one session: one signed by a
 * stranger's key under the Transmitter's kid (its signature does not verify), one for another
 * aud (re-signed with the real key, so only the envelope is wrong).
 */
export const REFUSED_REVOCATIONS = [
  [
    "stranger-key",
    "session-revoked signed by a stranger's key under the Transmitter's kid",
    "CAEPR-SIGNATURE",
  ],
  ["wrong-aud", "session-revoked for another aud (re-signed with the Transmitter's key)", "CAEPR-AUD"],
] as const;

/** Delivers a session-revoked for `subject`, forged or defective as `attack` says (tagged an attack). */
export async function sendRefused(
  k: ReceiverClient,
  attack: (typeof REFUSED_REVOCATIONS)[number][0],
  subject: SubId,
  label: string,
): Promise<Sent> {
  const valid = await k.set("session-revoked", { subject });
  const [forged] = await tokenAttacks({ token: valid.token, signingKey: k.signingKey, only: [attack] });
  if (forged === undefined) throw new Error(`sendRefused: no ${attack} variant of the SET`);
  k.hideSignature(forged.token);
  const outcome = await deliver(k, forged.token, { label, jti: valid.jti, tags: [ATTACK] });
  return { label, outcome, at: Date.now() };
}

/** session-revoked for one session, its subject under `form`. */
export const revoke = (k: ReceiverClient, form: Form, s: FreshSubject): Promise<Sent> =>
  send(k, "session-revoked", subjectIn(form, s), `session-revoked (${form} subject)`);

export const notAccepted = (x: Sent, see: string): string =>
  `${x.label} was not accepted (${x.outcome.said}), so its effect cannot be judged: see ${see}`;

export interface Watched {
  /** Whether the probe showed the subject ended before the deadline. */
  readonly done: boolean;
  readonly res: HttpResponse;
  /** From the SET's acceptance to the answer that showed it (or to the deadline). */
  readonly ms: number;
  readonly reads: number;
}

export async function pause(c: Ctx, ms: number): Promise<void> {
  try {
    await sleep(ms, undefined, { signal: c.signal });
  } catch {
    throw new HarnessError("IDC_RUN_ABORTED", "the check was stopped while it waited for a probe");
  }
}

/**
 * Reads the probe until it shows the subject ended (401, 403, 404) or `timeoutMs` after `since`
 * passes: the only way to see an effect is to ask, so the gaps are bounded and grow (15 ms to
 * 250 ms), and the time it took is measured from the SET's acceptance.
 */
export async function untilEnded(
  c: Ctx,
  name: ProbeName,
  value: string,
  label: string,
  since: number,
  stop?: () => boolean,
): Promise<Watched> {
  const deadline = since + c.profile.effects.timeoutMs;
  let gap = FIRST_GAP_MS;
  for (let reads = 1; ; reads++) {
    const res = await probe(c, name, value, `${label} (read ${reads})`);
    const now = Date.now();
    if (ended(res)) return { done: true, res, ms: now - since, reads };
    // Given up early (`stop`) reads as not ended: only callers that need no verdict of it stop.
    if (now >= deadline || stop?.() === true) return { done: false, res, ms: now - since, reads };
    await pause(c, Math.min(gap, deadline - now));
    gap = Math.min(gap * 2, MAX_GAP_MS);
  }
}

/** Watches a sent SET's effect on one subject; undefined when the SET was not accepted. */
export async function watch(
  c: Ctx,
  name: ProbeName,
  value: string,
  x: Sent,
  stop?: () => boolean,
): Promise<Watched | undefined> {
  return x.outcome.kind === "accepted"
    ? await untilEnded(c, name, value, `${name} probe after ${x.label}`, x.at, stop)
    : undefined;
}

/** Reads a probe a few times over a short window: the first answer that breaks `keep`, if any. */
export async function steady(
  c: Ctx,
  name: ProbeName,
  value: string,
  label: string,
  keep: (res: HttpResponse) => boolean,
  reads = STEADY_READS,
): Promise<{ readonly broke?: HttpResponse; readonly last: HttpResponse }> {
  let last: HttpResponse | undefined;
  for (let i = 1; i <= reads; i++) {
    if (i > 1) await pause(c, STEADY_GAP_MS * (i - 1));
    last = await probe(c, name, value, `${label} (read ${i})`);
    if (!keep(last)) return { broke: last, last };
  }
  return { last: last! };
}

/** Judges that a probe showed the subject ended within the profile's bound; the time it took goes into a note. */
export function judgeEnded(c: Ctx, id: string, w: Watched, what: string, name: ProbeName): boolean {
  if (w.done) c.note(`${what}: took effect ${w.ms} ms after the SET was accepted (${w.reads} probe read(s))`);
  return c.check(id, w.done, {
    message: `${what}: the ${name} probe still shows the subject active ${w.ms} ms after the SET was accepted`,
    expected: `${what}: within ${c.profile.effects.timeoutMs} ms (effects.timeoutMs) of the SET's acceptance, the ${name} probe answers 401, 403 or 404`,
    actual: `after ${w.reads} read(s) over ${w.ms} ms the probe answered ${shown(w.res)}`,
    res: w.res,
    kind: active(w.res) ? "accepted" : "wrong-status",
  });
}

export interface Revoked {
  readonly form: Form;
  /** The session revoked under `form` (its user made fresh for it). */
  readonly s: FreshSubject;
  readonly sent: Sent;
  readonly w: Watched;
}

/**
 * session-revoked under each of `forms`, each on a session of its own (made active by the hook,
 * `extra` adding more to each user first), watched side by side: what each did. For checks about
 * something else (resurrection, scope) whose verdict must not hang on one form the Receiver
 * ignores (that is CAEPR-EFFECT-SESSION-SUBJECTS'), at the cost of at most one
 * effects.timeoutMs. Watching stops once `enough` says the forms that took effect suffice.
 */
export async function revokeUnder(
  c: Ctx,
  k: ReceiverClient,
  forms: readonly Form[],
  label: string,
  o: {
    readonly extra?: (s: FreshSubject, form: Form) => Promise<void>;
    readonly enough?: (ended: readonly Form[]) => boolean;
  } = {},
): Promise<Revoked[]> {
  const { extra, enough = () => false } = o;
  const tries: { form: Form; s: FreshSubject }[] = [];
  for (const form of forms) {
    const s = await freshSession(c, k, `${label} under ${form}`);
    await mustBeActive(c, "sessionActive", s.sessionId, "a fresh session");
    await extra?.(s, form);
    tries.push({ form, s });
  }
  const sent: Sent[] = [];
  for (const t of tries) sent.push(await revoke(k, t.form, t.s));
  const ended: Form[] = [];
  const watched = await Promise.all(
    tries.map(async (t, i) => {
      const w = await watch(c, "sessionActive", t.s.sessionId, sent[i]!, () => enough(ended));
      if (w?.done) ended.push(t.form);
      return w;
    }),
  );
  return tries.flatMap((t, i) => {
    const w = watched[i];
    return w === undefined ? [] : [{ ...t, sent: sent[i]!, w }];
  });
}
