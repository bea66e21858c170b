import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { CAEP_EVENT_BASE, COMMON_CLAIMS, eventUri, type CaepEventName } from "../../../src/protocols/caep.js";
import { exampleClaims } from "../../../mocks/transmitter/set.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient, type BuiltSet } from "../receiver-client.js";
import { deliver, deliverBatch, type DeliveryOutcome } from "../delivery.js";

type Ctx = CheckContext<CaepReceiverProfile>;

/** Decides `id` on each SET of a batch: every one accepted (push 2xx, poll acknowledged). */
async function acceptEach(
  c: Ctx,
  k: ReceiverClient,
  id: string,
  sets: readonly (BuiltSet & { label: string })[],
  what: string,
): Promise<void> {
  const outcomes = await deliverBatch(
    k,
    sets.map((s) => ({ jti: s.jti, token: s.token, label: s.label })),
  );
  await c.each(id, outcomes, what, (o, i) => notAccepted(sets[i]!.label, o));
}

function notAccepted(label: string, o: DeliveryOutcome) {
  if (o.kind === "accepted") return undefined;
  return {
    message: `${label}: ${o.kind === "refused" ? "refused" : "not accepted"}`,
    expected: `${label}: ${o.poll ? "acknowledged" : "accepted (202)"}`,
    actual: o.said,
    ...(o.res ? { res: o.res } : {}),
    kind: o.kind === "pending" ? ("missing" as const) : ("wrong-status" as const),
  };
}

/** The claims an event type defines itself, required and optional (not those of every event). */
function ownClaims(name: CaepEventName): Record<string, unknown> {
  const full = exampleClaims(name, "full");
  return Object.fromEntries(Object.entries(full).filter(([claim]) => !(claim in COMMON_CLAIMS)));
}

/** An extension member no specification defines. */
const EXT = "idc_extension";

/**
 * SSF and RFC 8417 (public-spec-facts §4), RFC 8935 §2 and RFC 8936 §2.4: what a Receiver meets
 * in the field and takes without refusing (each at its requirement's level): unknown event types
 * and members, re-sent SETs, verification without state, subjects it has never heard of.
 */
export const robustnessChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.unknown-event",
    title:
      "a SET whose session-revoked event also carries an alternative event type URI the Receiver does not know (the same event, the same claims) is accepted, the unknown URI ignored",
    requirements: ["CAEPR-UNKNOWN-EVENT"],
    async run(c) {
      const k = new ReceiverClient(c);
      const known = eventUri("session-revoked");
      const subject = await k.subjectFor("session-revoked");
      const sets = [];
      // SSF 1.0 "The events claim": several event type URIs only as alternative URIs of the
      // exact same event type (RFC 8417 §2.2: never several independent events). So the unknown
      // URI names the same event as the known one, with the same claim object: a Receiver
      // takes the URI it knows and ignores the other.
      const claims = { event_timestamp: Math.floor(Date.now() / 1000) - 5, initiating_entity: "policy" };
      for (const [label, uri] of [
        [
          "session-revoked also under an alternative URI of another namespace",
          "https://schemas.idconform.invalid/secevent/caep/event-type/session-revoked",
        ],
        [
          "session-revoked also under an alternative CAEP URI not (yet) defined",
          `${CAEP_EVENT_BASE}session-revoked-v2`,
        ],
        [
          // Its last path segment is another CAEP event's name (and its prefix as long as CAEP's):
          // a Receiver that reads an event type by its tail takes it for credential-change.
          "session-revoked also under another namespace's URI ending in credential-change",
          "https://schemas.idcon.test/secevent/caep/event-type/credential-change",
        ],
      ] as const) {
        const s = await k.set("session-revoked", {
          subject,
          edit: (p) => void (p.events = { [known]: claims, [uri]: claims }),
        });
        sets.push({ ...s, label });
      }
      await acceptEach(c, k, "CAEPR-UNKNOWN-EVENT", sets, "SET");
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.unknown-members",
    title:
      "a SET with an unknown JOSE header member, an unknown top-level claim, an unknown event claim or an additional member of a complex sub_id is accepted",
    requirements: ["CAEPR-UNKNOWN-MEMBERS"],
    async run(c) {
      const k = new ReceiverClient(c);
      const sets = [];
      const s1 = await k.subjectFor("credential-change");
      sets.push({
        ...(await k.set("credential-change", { subject: s1, header: { [EXT]: "value" } })),
        label: "an unknown header member",
      });
      const s2 = await k.subjectFor("credential-change");
      sets.push({
        ...(await k.set("credential-change", { subject: s2, payload: { [EXT]: { nested: [1, 2] } } })),
        label: "an unknown top-level claim",
      });
      const s3 = await k.subjectFor("credential-change");
      sets.push({
        ...(await k.set("credential-change", {
          subject: s3,
          claims: { ...exampleClaims("credential-change", "required"), [EXT]: "value" },
        })),
        label: "an unknown event claim",
      });
      // A claim name another event type defines (the SSF verification event's state) is just as
      // unknown to credential-change.
      const s5 = await k.subjectFor("credential-change");
      sets.push({
        ...(await k.set("credential-change", {
          subject: s5,
          claims: { ...exampleClaims("credential-change", "required"), state: "idc-not-a-verification" },
        })),
        label: "an unknown event claim named state (as the verification event's)",
      });
      // SSF: "Additional Subject Member names MAY be used in Complex Subjects". An extra member
      // in a simple format is not probed: RFC 9493 §3 says a Subject Identifier MUST NOT contain
      // members its format does not describe, so refusing one is as defensible as ignoring it.
      const s4 = await k.subjectFor("session-revoked");
      sets.push({
        ...(await k.set("session-revoked", {
          subject: { ...s4, [EXT]: { format: "opaque", id: `idc-extension-${s4.format}` } },
        })),
        label: "a complex sub_id with an additional subject member",
      });
      await acceptEach(c, k, "CAEPR-UNKNOWN-MEMBERS", sets, "SET");
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.duplicate-jti",
    title:
      "a SET sent again with the same jti is answered as if it were new (push: 202, as the first time; poll: acknowledged again)",
    // Push (RFC 8935 §2, a MUST) and poll (RFC 8936 §2.4, a SHOULD) are judged under their own
    // requirement; the stream's delivery method decides which one this run can observe.
    requirements: ["CAEPR-DUPLICATE-JTI", "CAEPR-POLL-DUPLICATE-JTI"],
    async run(c) {
      const k = new ReceiverClient(c);
      const poll = (await k.stream()).delivery === "poll";
      const id = poll ? "CAEPR-POLL-DUPLICATE-JTI" : "CAEPR-DUPLICATE-JTI";
      if (poll)
        c.skipOnly(
          "CAEPR-DUPLICATE-JTI",
          "push only: the requirement speaks of a SET pushed again, and the profile's delivery is poll (RFC 8936: CAEPR-POLL-DUPLICATE-JTI)",
          "not-offered",
        );
      else
        c.skipOnly(
          "CAEPR-POLL-DUPLICATE-JTI",
          "poll only: the requirement speaks of a SET handed out again by poll, and the profile's delivery is push (RFC 8935: CAEPR-DUPLICATE-JTI)",
          "not-offered",
        );
      const s = await k.set("session-revoked", { subject: await k.subjectFor("session-revoked") });
      const first = await deliver(k, s.token, { label: "session-revoked", jti: s.jti });
      if (first.kind !== "accepted")
        c.skip(
          `the SET was not accepted the first time (${first.said}): see CAEPR-ACCEPT-EVENTS`,
          "dependency",
        );
      const again = await deliver(k, s.token, { label: "the same SET again (same jti)", jti: s.jti });
      // poll: acknowledged again (a second ack) and never reported in setErrs.
      const ok =
        again.kind === "accepted" &&
        (again.poll === undefined || (again.poll.acks >= 2 && again.poll.errs === 0));
      c.check(id, ok, {
        ...(ok ? {} : { message: "the re-sent SET was not answered as if it were new" }),
        expected: `the same SET again: ${poll ? "acknowledged again, not reported in setErrs" : "accepted (202), as the first time"}`,
        actual:
          again.kind === "accepted" && again.poll !== undefined && again.poll.errs > 0
            ? `${again.said}, and reported in setErrs ${again.poll.errs} time(s)`
            : again.said,
        ...(again.res ? { res: again.res } : {}),
        kind: again.kind === "pending" ? "missing" : "wrong-status",
      });
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.verification-no-state",
    title: "an SSF verification event without state (unsolicited) is accepted",
    requirements: ["CAEPR-VERIFICATION-NO-STATE"],
    // SSF §8.1.4.1 has the Receiver confirm that state "is as expected"; a verification without
    // state is not one with a wrong state: §8.1.4 lets the Transmitter send one at any time, and
    // §8.1.4.2 forbids state when the Transmitter starts it, so a Receiver that requires state
    // refuses what SSF makes the Transmitter send (hence a MUST, though derived).
    async run(c) {
      const k = new ReceiverClient(c);
      const stream = await k.stream();
      const s = await k.set("verification", {
        claims: {},
        subject: { format: "opaque", id: stream.streamId },
      });
      await acceptEach(
        c,
        k,
        "CAEPR-VERIFICATION-NO-STATE",
        [{ ...s, label: "verification event without state" }],
        "SET",
      );
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.unknown-subject",
    title:
      "a SET about a subject the Receiver does not know (by email, opaque id, iss_sub or complex) is accepted",
    requirements: ["CAEPR-UNKNOWN-SUBJECT"],
    async run(c) {
      const k = new ReceiverClient(c);
      // Fresh identifiers never given to the session hook: no Receiver knows them.
      const f = k.subjects.fresh();
      const sets = [];
      for (const [label, event, subject] of [
        ["session-revoked for an unknown session (opaque)", "session-revoked", f.session],
        ["session-revoked for an unknown user and session (complex)", "session-revoked", f.complex],
        ["credential-change for an unknown user (email)", "credential-change", f.user],
        ["risk-level-change for an unknown user (iss_sub)", "risk-level-change", f.issSub],
      ] as const) {
        // Every claim of the type's own, so nothing but the subject is unusual about the SET.
        sets.push({ ...(await k.set(event, { subject, claims: ownClaims(event) })), label });
      }
      await acceptEach(c, k, "CAEPR-UNKNOWN-SUBJECT", sets, "SET");
    },
  }),
];
