import { randomBytes } from "node:crypto";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import {
  CAEP_EVENT_NAMES,
  EVENT_CLAIMS,
  COMMON_CLAIMS,
  type CaepEventName,
} from "../../../src/protocols/caep.js";
import { quote } from "../../../src/engine/quote.js";
import { exampleClaims, exampleSubject } from "../../../mocks/transmitter/set.js";
import type { PushResult, StreamView } from "../../../mocks/transmitter/types.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient, type EventRef, type SetOptions } from "../receiver-client.js";
import { accepted, deliverBatch, type DeliveryOutcome } from "../delivery.js";
import type { SubId } from "../subjects.js";

type Ctx = CheckContext<CaepReceiverProfile>;

/** One valid SET to deliver and the requirement its acceptance decides. */
interface Case {
  readonly label: string;
  readonly event: EventRef;
  readonly o?: SetOptions;
}

/**
 * Delivers every case (poll: as one batch) and decides `id` on each: every valid SET must be
 * accepted (push 2xx, poll acknowledged), not only the first.
 */
async function acceptAll(
  c: Ctx,
  k: ReceiverClient,
  id: string,
  cases: readonly Case[],
  what: string,
): Promise<void> {
  const built: { jti: string; token: string; label: string }[] = [];
  for (const x of cases) {
    const subject = x.o?.subject ?? (await k.subjectFor(x.event));
    const s = await k.set(x.event, { ...x.o, subject });
    built.push({ jti: s.jti, token: s.token, label: x.label });
  }
  const outcomes = await deliverBatch(k, built);
  await c.each(id, outcomes, what, (o, i) => {
    if (o.kind === "accepted") return undefined;
    const label = built[i]!.label;
    return {
      message: `${label}: ${o.kind === "refused" ? "refused a valid SET" : "not accepted"}`,
      expected: `${label}: ${o.poll ? "acknowledged" : "accepted (202)"}`,
      actual: o.said,
      ...(o.res ? { res: o.res } : {}),
      kind: o.kind === "pending" ? "missing" : "wrong-status",
    };
  });
}

/** A level of each assurance namespace, so a level never contradicts its namespace. */
const LEVEL_OF: Record<string, string> = {
  RFC8176: "mfa",
  RFC6711: "http://idmanagement.gov/ns/assurance/loa/2",
  "ISO-IEC-29115": "loa2",
  "NIST-IAL": "nist-ial2",
  "NIST-AAL": "nist-aal2",
  "NIST-FAL": "nist-fal2",
};
const OTHER_STATUS: Record<string, string> = { compliant: "not-compliant", "not-compliant": "compliant" };

/**
 * The claims of `name` with `claim` set to `v`, the others made to agree with it: a status
 * change that changes something, a level of the namespace named.
 */
function consistent(
  name: CaepEventName,
  base: "required" | "full",
  claim: string,
  v: string,
): Record<string, unknown> {
  const claims: Record<string, unknown> = { ...exampleClaims(name, base), [claim]: v };
  if (claim === "namespace") claims.current_level = LEVEL_OF[v] ?? claims.current_level;
  // exampleClaims' assurance levels go from nist-aal1 to nist-aal2.
  if (claim === "change_direction" && v === "decrease" && claims.previous_level !== undefined)
    claims.previous_level = "nist-aal3";
  if (claim === "previous_status") claims.current_status = OTHER_STATUS[v];
  if (claim === "current_status") claims.previous_status = OTHER_STATUS[v];
  return claims;
}

/**
 * Each named value of each of `claims` that has a value set, one SET per value, over the
 * type's required claims (`base` "required") or all its claims ("full": an optional claim is
 * probed beside the others it goes with, so only its own value is new).
 */
function valueSweep(name: CaepEventName, claims: readonly string[], base: "required" | "full"): Case[] {
  const rules = { ...COMMON_CLAIMS, ...EVENT_CLAIMS[name] };
  const out: Case[] = [];
  for (const claim of claims) {
    for (const v of rules[claim]?.values ?? []) {
      out.push({
        label: `${name} with ${claim} "${v}"`,
        event: name,
        o: { claims: consistent(name, base, claim, v) },
      });
    }
  }
  return out;
}

const required = (name: CaepEventName): string[] =>
  Object.entries(EVENT_CLAIMS[name])
    .filter(([, r]) => r.required)
    .map(([n]) => n);
const optional = (name: CaepEventName): string[] => [
  ...Object.keys(COMMON_CLAIMS),
  ...Object.entries(EVENT_CLAIMS[name])
    .filter(([, r]) => !r.required)
    .map(([n]) => n),
];

/** A subject of `format` no one else uses (exampleSubject derives its members from the seed). */
const unique = (c: Ctx, format: string): SubId =>
  exampleSubject(format, `${c.runId}-${format}-${randomBytes(4).toString("hex")}`) as SubId;

/** A subject format probe: the sub_id, and whether the Receiver can know whom it names. */
type FormatCase = readonly [label: string, subject: SubId, knowable: boolean];

/**
 * Judges `id` on a SET per subject format. Formats the session hook cannot register (jwt_id,
 * account, did...) necessarily name a subject the Receiver does not know, so their refusal says
 * something about the format only when the Receiver takes unknown subjects: the run's control
 * SET about an unknown user (`unknownSubjects`) tells, and when it was refused those formats are
 * left out (a partial observation, never a pass) rather than failed for what
 * CAEPR-UNKNOWN-SUBJECT judges; with no format left (no session hook) the check skips.
 */
async function acceptFormats(
  c: Ctx,
  k: ReceiverClient,
  id: string,
  cases: readonly FormatCase[],
): Promise<void> {
  let judged = cases;
  const event = await k.carrier();
  if (cases.some(([, , knowable]) => !knowable)) {
    const u = await k.unknownSubjects();
    if (!u.accepted) {
      judged = cases.filter(([, , knowable]) => knowable);
      if (judged.length === 0) await k.unknownSubjectsOrSkip();
      const left = cases.filter(([, , knowable]) => !knowable).map(([label]) => label);
      c.partly(
        id,
        `the Receiver refuses subjects it does not know (${u.said}; see CAEPR-UNKNOWN-SUBJECT), so the formats no hook can register were not judged: ${left.join(", ")}`,
        "dependency",
      );
    }
  }
  await acceptAll(
    c,
    k,
    id,
    judged.map(([f, subject]) => ({
      label: `${event} for a ${f} subject`,
      event,
      o: { subject },
    })),
    "subject format",
  );
}

/**
 * The CAEP types the stream delivers, with a note naming those it does not: a Receiver may
 * request only the events it understands (SSF §8.1.1) and decline the others (RFC 8935 §2), so
 * SETs of those are not sent. Skips the check when the stream delivers none.
 */
async function deliveredTypes(c: Ctx, k: ReceiverClient): Promise<CaepEventName[]> {
  const delivered = await k.deliveredEvents();
  const left = CAEP_EVENT_NAMES.filter((n) => !delivered.includes(n));
  if (delivered.length === 0)
    c.skip(
      "the Receiver's stream delivers no CAEP event type (events_delivered is empty: it requested none the Transmitter supports, see CAEPR-STREAM-EVENTS)",
      "dependency",
    );
  if (left.length > 0)
    c.note(
      `not requested: the Receiver's stream does not deliver ${left.join(", ")} (events_delivered), so no SET of those types was sent`,
    );
  return delivered;
}

/** How long to wait for the Receiver's verification request once its stream exists (as the stream set-up check). */
const VERIFY_WAIT_MS = 2000;

/** A push of the mock's own verification SET, as a delivery outcome (the mock, not the check, sent it). */
function pushed(d: PushResult): DeliveryOutcome {
  if (d.status === undefined) return { kind: "other", said: d.error ?? "no answer" };
  const body = d.body === undefined || d.body === "" ? "(empty body)" : `body ${quote(d.body, 160)}`;
  const kind =
    d.status >= 200 && d.status < 300 ? "accepted" : d.status >= 400 && d.status < 500 ? "refused" : "other";
  return { kind, status: d.status, said: `${d.status} ${body}` };
}

/**
 * The outcome of the verification SET the mock Transmitter sent when the Receiver asked for one
 * (SSF §8.1.4.2): push, how the Receiver answered the mock's push; poll, the outcome of its jti.
 * Undefined when the Receiver made no verification request (within VERIFY_WAIT_MS of its stream).
 */
async function ownVerification(
  c: Ctx,
  k: ReceiverClient,
  stream: StreamView,
): Promise<{ o: DeliveryOutcome; view: StreamView } | undefined> {
  let view: StreamView | undefined =
    stream.createdBy === "receiver"
      ? await k.mock.waitForVerification(stream.streamId, VERIFY_WAIT_MS)
      : (await k.mock.streams()).find((x) => x.streamId === stream.streamId);
  if (view?.verification === undefined) return undefined;
  const settle = c.profile.deliveryTimeoutMs + 5000;
  if (view.verification.delivery === undefined)
    view = (await k.mock.waitForVerification(stream.streamId, settle)) ?? view;
  const v = view.verification!;
  if (v.delivery !== undefined) return { o: pushed(v.delivery), view };
  if (v.jti === undefined) return { o: { kind: "pending", said: "the mock had not sent it yet" }, view };
  const got = (await k.mock.outcomes(stream.streamId, [v.jti], 0)).outcomes[v.jti];
  const poll = got ?? { kind: "pending" as const, deliveries: 0, acks: 0, errs: 0, unsolicited: 0 };
  const said =
    poll.kind === "acked"
      ? `acknowledged (delivered ${poll.deliveries} time(s))`
      : poll.kind === "error"
        ? `reported in setErrs: ${quote(poll.err ?? null, 40)}${poll.description !== undefined ? ` (${quote(poll.description, 80)})` : ""}`
        : `neither acknowledged nor reported in setErrs within ${settle} ms (delivered ${poll.deliveries} time(s))`;
  return {
    o: {
      kind: poll.kind === "acked" ? "accepted" : poll.kind === "error" ? "refused" : "pending",
      poll,
      ...(poll.err !== undefined ? { err: poll.err } : {}),
      said,
    },
    view,
  };
}

/**
 * specs/002 area B (events, security event token envelope) and SSF: valid SETs of every kind
 * the Receiver may meet are accepted, each judged on its own.
 */
export const acceptanceChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.accept-events",
    title:
      "a SET of each CAEP event type the stream delivers (all eight unless the Receiver requested fewer) with its required claims, and with each named value of a required claim's value set, is accepted, as is one without the OPTIONAL txn",
    requirements: ["CAEPR-ACCEPT-EVENTS"],
    async run(c) {
      const k = new ReceiverClient(c);
      const types = await deliveredTypes(c, k);
      const cases: Case[] = types.map((name) => ({
        label: `${name} (required claims)`,
        event: name,
      }));
      for (const name of types) cases.push(...valueSweep(name, required(name), "required"));
      // txn is OPTIONAL (RFC 8417 §2.2; SSF 1.0 §4.1.7 has the Transmitter include it only
      // when it has one): a SET without it carries only REQUIRED claims.
      const bare = types.includes("session-revoked") ? "session-revoked" : types[0]!;
      cases.push({ label: `${bare} without txn (an OPTIONAL claim)`, event: bare, o: { omit: ["txn"] } });
      await acceptAll(c, k, "CAEPR-ACCEPT-EVENTS", cases, "valid SET");
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.accept-optional-claims",
    title:
      "a SET of each event type the stream delivers with every optional claim (reason_admin and reason_user maps, initiating_entity, event_timestamp, the type's own) is accepted, as is each named value of an optional claim",
    requirements: ["CAEPR-ACCEPT-OPTIONAL-CLAIMS"],
    async run(c) {
      const k = new ReceiverClient(c);
      const types = await deliveredTypes(c, k);
      const cases: Case[] = types.map((name) => ({
        label: `${name} (every optional claim)`,
        event: name,
        o: { claims: exampleClaims(name, "full") },
      }));
      for (const name of types) cases.push(...valueSweep(name, optional(name), "full"));
      // One claim at a time too: a Receiver that needs them together is as wrong as one that
      // refuses them. Over a type whose own claims are all optional, when the stream delivers one.
      const alone = types.includes("session-revoked") ? "session-revoked" : types[0]!;
      for (const claim of Object.keys(COMMON_CLAIMS)) {
        const full = exampleClaims(alone, "full");
        cases.push({
          label: `${alone} with only ${claim}`,
          event: alone,
          o: { claims: { ...exampleClaims(alone, "required"), [claim]: full[claim] } },
        });
      }
      await acceptAll(c, k, "CAEPR-ACCEPT-OPTIONAL-CLAIMS", cases, "valid SET");
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.accept-subjects",
    title:
      "a SET whose sub_id is of each subject format of the document (opaque, iss_sub, email, jwt_id, saml_assertion_id, complex with session, user, device, tenant) is accepted",
    requirements: ["CAEPR-ACCEPT-SUBJECTS"],
    async run(c) {
      const k = new ReceiverClient(c);
      // Formats the Receiver knows the session hook's user and session by are given as those
      // (the SET is then about a subject it holds); the others cannot be.
      const known = await k.session("session hook (subjects)");
      const s = known ?? k.subjects.fresh();
      const device = unique(c, "opaque");
      const tenant = unique(c, "opaque");
      const k2 = known !== undefined;
      const subjects: FormatCase[] = [
        ["opaque", s.session, k2],
        ["iss_sub", s.issSub, k2],
        ["email", s.user, k2],
        ["jwt_id", unique(c, "jwt_id"), false],
        ["saml_assertion_id", unique(c, "saml_assertion_id"), false],
        ["complex {user, session}", s.complex, k2],
        ["complex {user, device}", { format: "complex", user: s.user, device }, k2],
        ["complex {session, device}", { format: "complex", session: s.session, device }, k2],
        ["complex {user, tenant}", { format: "complex", user: s.user, tenant }, k2],
      ];
      if (!known) c.note("no hooks.session: every subject is one the Receiver does not know");
      await acceptFormats(c, k, "CAEPR-ACCEPT-SUBJECTS", subjects);
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.accept-subjects-public",
    title:
      "a SET whose sub_id is of each other subject format of RFC 9493 and SSF (account, phone_number, did, uri, aliases, ip-addresses, complex with application, org_unit, group) is accepted",
    requirements: ["CAEPR-ACCEPT-SUBJECTS-PUBLIC"],
    async run(c) {
      const k = new ReceiverClient(c);
      const known = await k.session("session hook (subjects)");
      const s = known ?? k.subjects.fresh();
      const phone = unique(c, "phone_number");
      const k2 = known !== undefined;
      const subjects: FormatCase[] = [
        ["account", unique(c, "account"), false],
        ["phone_number", phone, false],
        ["did", unique(c, "did"), false],
        ["uri", unique(c, "uri"), false],
        ["aliases", { format: "aliases", identifiers: [s.user, phone] }, k2],
        ["ip-addresses", unique(c, "ip-addresses"), false],
        [
          "complex {user, application}",
          { format: "complex", user: s.user, application: unique(c, "uri") },
          k2,
        ],
        ["complex {user, org_unit}", { format: "complex", user: s.user, org_unit: unique(c, "opaque") }, k2],
        ["complex {user, group}", { format: "complex", user: s.user, group: unique(c, "opaque") }, k2],
      ];
      await acceptFormats(c, k, "CAEPR-ACCEPT-SUBJECTS-PUBLIC", subjects);
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.accept-verification",
    title:
      "the verification SET the Transmitter sends after the Receiver's verification request (its state echoed) is accepted; without a request, a verification SET without state for its stream",
    requirements: ["CAEPR-ACCEPT-VERIFICATION"],
    async run(c) {
      const k = new ReceiverClient(c);
      const stream = await k.stream();
      // The Receiver's own request (SSF §8.1.4.2) was answered by the mock with a verification
      // SET carrying its state: that SET is judged, not a second one with the same state, which
      // a Receiver treating its state as single-use may rightly refuse as invalid_state.
      const own = await ownVerification(c, k, stream);
      if (own !== undefined) {
        const v = own.view.verification!;
        accepted(
          c,
          "CAEPR-ACCEPT-VERIFICATION",
          own.o,
          `the verification SET the mock Transmitter ${own.o.poll ? "queued" : "pushed"} after the Receiver's verification request (${v.state !== undefined ? "its state echoed" : "it sent no state"}; ${v.requests} request(s) in all, the latest answered)`,
        );
        return;
      }
      // No request: the Transmitter's own verification event, which carries no state (SSF §8.1.4).
      c.note("the Receiver made no verification request: a verification SET without state was sent");
      await acceptAll(
        c,
        k,
        "CAEPR-ACCEPT-VERIFICATION",
        [
          {
            label: "verification event (no request to answer, no state)",
            event: "verification",
            o: { claims: {}, subject: { format: "opaque", id: stream.streamId } },
          },
        ],
        "verification SET",
      );
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.accept-aud-array",
    title: "a SET whose aud is an array holding the Receiver's audience (alone, or with another) is accepted",
    requirements: ["CAEPR-ACCEPT-AUD-ARRAY"],
    async run(c) {
      const k = new ReceiverClient(c);
      const event = await k.carrier();
      await acceptAll(
        c,
        k,
        "CAEPR-ACCEPT-AUD-ARRAY",
        [
          { label: "aud [audience]", event, o: { payload: { aud: [k.audience] } } },
          {
            label: "aud [another, audience]",
            event,
            o: { payload: { aud: ["https://another-receiver.idconform.invalid/", k.audience] } },
          },
        ],
        "SET",
      );
    },
  }),
];
