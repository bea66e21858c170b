import { defineCheck } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient } from "../receiver-client.js";
import type { FreshSubject, SubId } from "../subjects.js";
import { isRefused } from "../delivery.js";
import {
  active,
  freshSession,
  hasProbe,
  judgeEnded,
  MAX_GAP_MS,
  mustBeActive,
  notAccepted,
  REDUCING,
  REFUSED_REVOCATIONS,
  revoke,
  revokeUnder,
  secondSession,
  send,
  sendRefused,
  shown,
  steady,
  STEADY_READS,
  subjectIn,
  untilEnded,
  watch,
  type Ctx,
  type Form,
  type Sent,
} from "../model/probes.js";

/** The declared subject forms, or a skip when the profile declares none. */
const forms = (c: Ctx): readonly Form[] => {
  const f = c.profile.effects.subjectFormats;
  if (f.length === 0)
    c.skip("not declared: suites.caep-receiver.effects.subjectFormats names no subject form", "not-declared");
  return f;
};

/**
 * specs/002 area B events ("so that the Receiver can attenuate access") and CAEP 1.0 §3:
 * session-revoked and the access-reducing events, observed through the profile's probes.
 */
export const effectChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.effect-session-revoked",
    title:
      "session-revoked ends the session within the profile's bound, under every subject form the profile declares (complex {user, session}, email, iss_sub, opaque)",
    requirements: ["CAEPR-EFFECT-SESSION-REVOKED", "CAEPR-EFFECT-SESSION-SUBJECTS"],
    probe: "sessionActive",
    timeoutMs: 300_000,
    async run(c) {
      const k = new ReceiverClient(c);
      await k.stream();
      const sent: { form: Form; s: FreshSubject; x: Sent }[] = [];
      for (const form of forms(c)) {
        const s = await freshSession(c, k, `session to revoke under ${form}`);
        await mustBeActive(c, "sessionActive", s.sessionId, "a fresh session");
        sent.push({ form, s, x: await revoke(k, form, s) });
      }
      // One session per form, watched side by side: the bound holds for each.
      const watched = await Promise.all(sent.map(({ s, x }) => watch(c, "sessionActive", s.sessionId, x)));
      sent.forEach(({ x }, i) => {
        const w = watched[i];
        if (w === undefined)
          c.partly("CAEPR-EFFECT-SESSION-SUBJECTS", notAccepted(x, "CAEPR-ACCEPT-SUBJECTS"), "dependency");
        else judgeEnded(c, "CAEPR-EFFECT-SESSION-SUBJECTS", w, x.label, "sessionActive");
      });
      // The revocation takes effect when it does under some form; the forms it ignores are
      // CAEPR-EFFECT-SESSION-SUBJECTS' (so one ignored form does not read as no revocation at all).
      const done = sent.filter((_, i) => watched[i]?.done === true).map((x) => x.form);
      const firstMiss = watched.findIndex((w) => w !== undefined && !w.done);
      if (done.length > 0) {
        c.check("CAEPR-EFFECT-SESSION-REVOKED", true);
        c.note(`session-revoked ended the session under: ${done.join(", ")}`);
      } else if (firstMiss >= 0)
        c.check("CAEPR-EFFECT-SESSION-REVOKED", false, {
          message: `session-revoked ended no session, under any of the ${sent.length} declared subject form(s)`,
          expected: `within ${c.profile.effects.timeoutMs} ms (effects.timeoutMs) of the SET's acceptance, the sessionActive probe answers 401, 403 or 404`,
          actual: `${sent[firstMiss]!.x.label}: the probe answered ${shown(watched[firstMiss]!.res)} after ${watched[firstMiss]!.ms} ms`,
          res: watched[firstMiss]!.res,
          kind: "accepted",
        });
      else
        c.skipOnly(
          "CAEPR-EFFECT-SESSION-REVOKED",
          "no session-revoked SET was accepted, so no effect can be judged: see CAEPR-ACCEPT-EVENTS",
          "dependency",
        );
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.effect-access-reducing",
    title:
      "each access-reducing event the profile declares ends the user's access (credential-change revoke, assurance decrease, device not-compliant, risk HIGH), and the same event type saying the opposite does not",
    requirements: ["CAEPR-EFFECT-ACCESS-REDUCING"],
    probe: "subjectAccess",
    timeoutMs: 300_000,
    async run(c) {
      const k = new ReceiverClient(c);
      await k.stream();
      const events = c.profile.effects.accessReducing;
      if (events.length === 0)
        c.skip("not declared: suites.caep-receiver.effects.accessReducing names no event", "not-declared");
      const id = "CAEPR-EFFECT-ACCESS-REDUCING";
      const cases: { reduced: FreshSubject; kept: FreshSubject; r: Sent; keep: Sent; reduceIs: string }[] =
        [];
      for (const event of events) {
        const rule = REDUCING[event];
        const reduced = await freshSession(c, k, `user for ${event}`);
        const kept = await freshSession(c, k, `user for ${event} with ${rule.keepIs}`);
        await mustBeActive(c, "subjectAccess", reduced.email, "a fresh user");
        await mustBeActive(c, "subjectAccess", kept.email, "a fresh user");
        // The event that must not reduce access goes first: once the later, reducing one has
        // taken effect, the Receiver has had this one, and what it did with it is read back.
        const keep = await send(
          k,
          event,
          kept.user,
          `${event} with ${rule.keepIs} (must not reduce access)`,
          rule.keep,
        );
        const r = await send(k, event, reduced.user, `${event} with ${rule.reduceIs}`, rule.reduce);
        cases.push({ reduced, kept, r, keep, reduceIs: rule.reduceIs });
      }
      const watched = await Promise.all(cases.map((x) => watch(c, "subjectAccess", x.reduced.email, x.r)));
      const kept = await Promise.all(
        cases.map(async (x, i) => {
          const w = watched[i];
          if (w === undefined || !w.done || x.keep.outcome.kind !== "accepted") return undefined;
          return steady(
            c,
            "subjectAccess",
            x.kept.email,
            `subjectAccess probe after ${x.keep.label}`,
            active,
          );
        }),
      );
      for (const [i, x] of cases.entries()) {
        const w = watched[i];
        if (w === undefined) c.partly(id, notAccepted(x.r, "CAEPR-ACCEPT-EVENTS"), "dependency");
        else judgeEnded(c, id, w, x.r.label, "subjectAccess");
        if (x.keep.outcome.kind !== "accepted")
          c.partly(id, notAccepted(x.keep, "CAEPR-ACCEPT-EVENTS"), "dependency");
        const st = kept[i];
        if (st === undefined) {
          if (w !== undefined && x.keep.outcome.kind === "accepted")
            c.partly(
              id,
              `${x.keep.label}: not judged, the reducing event showed no effect to wait on`,
              "dependency",
            );
          continue;
        }
        c.check(id, st.broke === undefined, {
          message: `${x.keep.label}: the user's access was reduced, though the event's claims do not reduce it`,
          expected: `the subjectAccess probe still answers 2xx: only ${x.reduceIs} reduces access`,
          actual: `the probe answered ${shown(st.last)}`,
          res: st.last,
          kind: "wrong-value",
        });
      }
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.effect-no-resurrect",
    title:
      "a session-established after a session-revoked for the same session does not bring the session back",
    requirements: ["CAEPR-EFFECT-NO-RESURRECT"],
    probe: "sessionActive",
    timeoutMs: 300_000,
    async run(c) {
      const k = new ReceiverClient(c);
      await k.stream();
      const timeoutMs = c.profile.effects.timeoutMs;
      const got = (
        await revokeUnder(c, k, forms(c), "session to revoke", { enough: (ended) => ended.length > 0 })
      ).find((r) => r.w.done);
      if (got === undefined)
        return c.skip(
          "session-revoked ended the session under none of the declared subject forms (see CAEPR-EFFECT-SESSION-REVOKED): nothing to resurrect",
          "dependency",
        );
      const s = got.s;
      const later = await freshSession(c, k, "a second session, revoked after the session-established");
      await mustBeActive(c, "sessionActive", later.sessionId, "a fresh session");
      const established = await send(
        k,
        "session-established",
        subjectIn(got.form, s),
        `session-established (${got.form} subject) after its session-revoked`,
        { event_timestamp: Math.floor(Date.now() / 1000) },
      );
      if (established.outcome.kind !== "accepted")
        c.skip(notAccepted(established, "CAEPR-ACCEPT-EVENTS"), "dependency");
      // A later SET's effect shows that the Receiver has had this one: the revoked session is
      // read then. Without that sign, it is read until the profile's bound instead.
      const t = await revoke(k, got.form, later);
      const tw = await watch(c, "sessionActive", later.sessionId, t);
      const reads =
        tw?.done === true ? STEADY_READS : Math.max(STEADY_READS, Math.ceil(timeoutMs / MAX_GAP_MS));
      if (tw?.done !== true)
        c.note(
          `no later SET showed its effect, so the revoked session was read ${reads} times over about ${timeoutMs} ms`,
        );
      const st = await steady(
        c,
        "sessionActive",
        s.sessionId,
        `sessionActive probe after ${established.label}`,
        (res) => !active(res),
        reads,
      );
      c.check("CAEPR-EFFECT-NO-RESURRECT", st.broke === undefined, {
        message: `${established.label}: the revoked session is active again`,
        expected: "the revoked session stays ended: the probe answers 401, 403 or 404",
        actual: `the probe answered ${shown(st.last)}`,
        res: st.last,
        kind: "accepted",
      });
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.effect-refused",
    title:
      "a session-revoked the Receiver refuses (signed by a stranger's key, or for another aud) leaves the session it names active, also once a later valid SET has been processed",
    requirements: ["CAEPR-EFFECT-REFUSED"],
    probe: "sessionActive",
    timeoutMs: 300_000,
    async run(c) {
      const k = new ReceiverClient(c);
      await k.stream();
      const id = "CAEPR-EFFECT-REFUSED";
      // A refused SET can only be seen to act under a subject form the Receiver honours.
      const got = (
        await revokeUnder(c, k, forms(c), "session to revoke", { enough: (ended) => ended.length > 0 })
      ).find((r) => r.w.done);
      if (got === undefined)
        return c.skip(
          "session-revoked ended the session under none of the declared subject forms (see CAEPR-EFFECT-SESSION-REVOKED): a refused one could show no effect either",
          "dependency",
        );
      const { form } = got;
      // One session per refused SET (an accepted one may rightly end its own), one no SET names
      // (it tells a later SET's reach from a refused SET's late effect), one for the later SET.
      const targets: FreshSubject[] = [];
      for (const [, what] of REFUSED_REVOCATIONS) {
        const s = await freshSession(c, k, `session named by a ${what}`);
        await mustBeActive(c, "sessionActive", s.sessionId, "a fresh session");
        targets.push(s);
      }
      const bystander = await freshSession(c, k, "a session no SET names");
      const later = await freshSession(c, k, "a session revoked after the refused SETs");
      await mustBeActive(c, "sessionActive", bystander.sessionId, "a fresh session");
      await mustBeActive(c, "sessionActive", later.sessionId, "a fresh session");
      const cases: { s: FreshSubject; x: Sent }[] = [];
      for (const [i, [attack, what, see]] of REFUSED_REVOCATIONS.entries()) {
        const s = targets[i]!;
        const x = await sendRefused(k, attack, subjectIn(form, s), `${what} (${form} subject)`);
        // An accepted one is the refusal requirement's failure; what it then does is no refusal's effect.
        if (isRefused(x.outcome)) cases.push({ s, x });
        else
          c.note(`${x.label} was not refused (${x.outcome.said}): see ${see}; its effect is not judged here`);
      }
      if (cases.length === 0)
        return c.skip(
          "neither the forged nor the defective session-revoked was refused (see CAEPR-SIGNATURE, CAEPR-AUD): no refusal whose effect to judge",
          "dependency",
        );
      const judge = (x: Sent, st: { broke?: HttpResponse; last: HttpResponse }, when: string): boolean =>
        c.check(id, st.broke === undefined, {
          message: `${x.label}: refused (${x.outcome.said}), yet the session it names ended ${when}`,
          expected: "the session a refused SET names stays active: the sessionActive probe answers 2xx",
          actual: `the probe answered ${shown(st.last)}`,
          res: st.last,
          kind: "accepted",
        });
      // Right after the refusals: a few reads over a short window.
      const failed = new Set<number>();
      for (const [i, { s, x }] of cases.entries()) {
        const st = await steady(
          c,
          "sessionActive",
          s.sessionId,
          `sessionActive probe after ${x.label}`,
          active,
        );
        if (!judge(x, st, "right after")) failed.add(i);
      }
      // Then once a later valid SET has shown its effect, the Receiver has had the refused ones
      // (an asynchronous pipeline that acts on them late shows it now); without that sign, the
      // sessions are read until the profile's bound instead.
      const t = await revoke(k, form, later);
      const tw = await watch(c, "sessionActive", later.sessionId, t);
      const timeoutMs = c.profile.effects.timeoutMs;
      const reads =
        tw?.done === true ? STEADY_READS : Math.max(STEADY_READS, Math.ceil(timeoutMs / MAX_GAP_MS));
      if (tw?.done !== true)
        c.note(
          `no later SET showed its effect, so the sessions were read ${reads} times over about ${timeoutMs} ms`,
        );
      const by = await steady(
        c,
        "sessionActive",
        bystander.sessionId,
        "sessionActive probe of a session no SET names",
        active,
      );
      for (const [i, { s, x }] of cases.entries()) {
        if (failed.has(i)) continue;
        const st = await steady(
          c,
          "sessionActive",
          s.sessionId,
          `sessionActive probe after ${x.label} and ${t.label}`,
          active,
          reads,
        );
        if (st.broke !== undefined && by.broke !== undefined)
          c.partly(
            id,
            `${x.label}: its session ended after ${t.label}, which ended a session no SET names too (see CAEPR-EFFECT-SCOPE): the refused SET's part is not known`,
            "dependency",
          );
        else judge(x, st, `once ${t.label} had been processed`);
      }
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.effect-scope",
    title:
      "an event changes only the subject it names: another session of the same user, another user's session and another user's access are unchanged",
    requirements: ["CAEPR-EFFECT-SCOPE"],
    timeoutMs: 300_000,
    async run(c) {
      const sessions = hasProbe(c, "sessionActive");
      const access = hasProbe(c, "subjectAccess") && c.profile.effects.accessReducing.length > 0;
      if (!sessions && !access) {
        const off = c.profile.probes.sessionActive === false && c.profile.probes.subjectAccess === false;
        c.skip(
          off
            ? "not offered: the profile declares there is nothing to probe (probes.sessionActive and probes.subjectAccess: false)"
            : "needs probe: suites.caep-receiver.probes.sessionActive or probes.subjectAccess",
          off ? "not-offered" : "needs-probe",
        );
      }
      const k = new ReceiverClient(c);
      await k.stream();
      if (sessions) await sessionScope(c, k);
      else
        c.partly(
          "CAEPR-EFFECT-SCOPE",
          "sessions not judged: the profile gives no probes.sessionActive",
          "needs-probe",
        );
      if (access) await accessScope(c, k);
      else
        c.partly(
          "CAEPR-EFFECT-SCOPE",
          "access not judged: the profile gives no probes.subjectAccess or no effects.accessReducing event",
          "needs-probe",
        );
    },
  }),
];

/**
 * session-revoked naming one session of a user (complex {user, session} first: the event
 * applies to what matches the combined claims, specs/002 area B; else the opaque session): the
 * user's other session and another user's session stay active. A form that names only the user
 * ends all of that user's sessions, so then only the other user is judged.
 */
async function sessionScope(c: Ctx, k: ReceiverClient): Promise<void> {
  const declared = c.profile.effects.subjectFormats;
  if (declared.length === 0) {
    c.partly(
      "CAEPR-EFFECT-SCOPE",
      "sessions not judged: effects.subjectFormats names no subject form",
      "not-declared",
    );
    return;
  }
  const b = await freshSession(c, k, "another user's session");
  await mustBeActive(c, "sessionActive", b.sessionId, "a fresh session");
  // Forms that name one session and forms that name the user, side by side; a form of the
  // first kind that takes effect lets the user's other session be judged too.
  const seconds = new Map<string, FreshSubject>();
  const isNamed = (f: Form): boolean => f === "complex" || f === "opaque";
  const tried = await revokeUnder(c, k, declared, "session to revoke", {
    extra: async (s, form) => {
      if (!isNamed(form)) return;
      const two = await secondSession(c, k, s);
      await mustBeActive(c, "sessionActive", two.sessionId, "a second session of the same user");
      seconds.set(s.sessionId, two);
    },
    enough: (done) => done.some(isNamed) || (!declared.some(isNamed) && done.length > 0),
  });
  const ended = tried.filter((r) => r.w.done && isNamed(r.form));
  const users = tried.filter((r) => r.w.done && !isNamed(r.form));
  const any = ended[0] ?? users[0];
  if (any === undefined) {
    c.partly(
      "CAEPR-EFFECT-SCOPE",
      "session-revoked ended the session it names under none of the declared forms (see CAEPR-EFFECT-SESSION-REVOKED): its scope cannot be judged",
      "dependency",
    );
    return;
  }
  if (ended.length === 0)
    c.note(
      `${any.sent.label} names the user, not one session: another session of the same user is not judged`,
    );
  const others: [FreshSubject, string, string][] = [
    ...ended.map((r): [FreshSubject, string, string] => [
      seconds.get(r.s.sessionId)!,
      "another session of the same user",
      r.sent.label,
    ]),
    [b, "another user's session", any.sent.label],
  ];
  for (const [x, what, label] of others) {
    const st = await steady(c, "sessionActive", x.sessionId, `sessionActive probe of ${what}`, active);
    c.check("CAEPR-EFFECT-SCOPE", st.broke === undefined, {
      message: `${label}: ${what} ended too, though the SET does not name it`,
      expected: `${what} stays active (2xx)`,
      actual: `the probe answered ${shown(st.last)}`,
      res: st.last,
      kind: "wrong-value",
    });
  }
  await nearMisses(c, k, ended[0]?.form ?? any.form);
}

/** An issuer no Transmitter of the run has (`.invalid`, RFC 6761): an iss_sub of it names nobody the Receiver holds. */
const OTHER_ISSUER = "https://other-transmitter.idconform.invalid/";

/**
 * session-revoked SETs that come close to a user's session but name none: an iss_sub of another
 * issuer whose sub is the user's email (the iss and sub pair names the subject, RFC 9493
 * §3.2.4), and, when the profile declares complex subjects, a complex subject whose user and
 * session members belong to different users (CAEP 1.0 §3.1: the event applies to the sessions
 * "matching those combined claims", which none does). Every session involved stays active. They
 * are read once a session-revoked sent after them under `marker` (a form that took effect) has
 * ended its own session: a Receiver acting on SETs in order has acted on them by then.
 */
async function nearMisses(c: Ctx, k: ReceiverClient, marker: Form): Promise<void> {
  const misses: { label: string; subject: SubId; keep: [FreshSubject, string][] }[] = [];
  const a = await freshSession(c, k, "a user whose email an iss_sub of another issuer carries");
  await mustBeActive(c, "sessionActive", a.sessionId, "a fresh session");
  misses.push({
    label: "session-revoked for an iss_sub of another issuer whose sub is a user's email",
    subject: { format: "iss_sub", iss: OTHER_ISSUER, sub: a.email },
    keep: [[a, "the session of the user whose email is the sub"]],
  });
  if (c.profile.effects.subjectFormats.includes("complex")) {
    const u = await freshSession(c, k, "the user member of a mismatched complex subject");
    const s = await freshSession(c, k, "the session member of a mismatched complex subject");
    await mustBeActive(c, "sessionActive", u.sessionId, "a fresh session");
    await mustBeActive(c, "sessionActive", s.sessionId, "a fresh session");
    misses.push({
      label: "session-revoked for a complex subject whose user and session members belong to different users",
      subject: { format: "complex", user: u.user, session: s.session },
      keep: [
        [u, "the session of the user member"],
        [s, "the session member's session (another user's)"],
      ],
    });
  }
  const m = await freshSession(c, k, "a session revoked after the near misses");
  await mustBeActive(c, "sessionActive", m.sessionId, "a fresh session");
  for (const x of misses) await send(k, "session-revoked", x.subject, x.label);
  const mark = await revoke(k, marker, m);
  const w = await watch(c, "sessionActive", m.sessionId, mark);
  if (w?.done !== true) {
    c.partly(
      "CAEPR-EFFECT-SCOPE",
      `near misses not judged: ${mark.label}, sent after them, did not end its session in time`,
      "dependency",
    );
    return;
  }
  for (const x of misses)
    for (const [s, what] of x.keep) {
      const st = await steady(c, "sessionActive", s.sessionId, `sessionActive probe of ${what}`, active);
      c.check("CAEPR-EFFECT-SCOPE", st.broke === undefined, {
        message: `${x.label}: ${what} ended, though the SET names no session of it`,
        expected: `${what} stays active (2xx)`,
        actual: `the probe answered ${shown(st.last)}`,
        res: st.last,
        kind: "wrong-value",
      });
    }
}

/** An access-reducing event for one user (the first declared one that takes effect): another user's access stays. */
async function accessScope(c: Ctx, k: ReceiverClient): Promise<void> {
  const a = await freshSession(c, k, "user whose access is reduced");
  const b = await freshSession(c, k, "another user");
  await mustBeActive(c, "subjectAccess", a.email, "a fresh user");
  await mustBeActive(c, "subjectAccess", b.email, "a fresh user");
  for (const event of c.profile.effects.accessReducing) {
    const rule = REDUCING[event];
    const r = await send(k, event, a.user, `${event} with ${rule.reduceIs}`, rule.reduce);
    const w =
      r.outcome.kind === "accepted"
        ? await untilEnded(c, "subjectAccess", a.email, `subjectAccess probe after ${r.label}`, r.at)
        : undefined;
    if (w?.done !== true) continue;
    const st = await steady(c, "subjectAccess", b.email, "subjectAccess probe of another user", active);
    c.check("CAEPR-EFFECT-SCOPE", st.broke === undefined, {
      message: `${r.label}: another user's access was reduced too, though the SET does not name them`,
      expected: "another user keeps access (2xx)",
      actual: `the probe answered ${shown(st.last)}`,
      res: st.last,
      kind: "wrong-value",
    });
    return;
  }
  c.partly(
    "CAEPR-EFFECT-SCOPE",
    "none of the declared access-reducing events reduced the access of the user it names (see CAEPR-EFFECT-ACCESS-REDUCING): its scope cannot be judged",
    "dependency",
  );
}
