import { randomBytes } from "node:crypto";
import type { JWK } from "jose";
import type { CheckContext } from "../../src/engine/check.js";
import { SetupError } from "../../src/engine/errors.js";
import { quote } from "../../src/engine/quote.js";
import {
  CAEP_EVENT_NAMES,
  eventUri,
  SSF_VERIFICATION_EVENT,
  type CaepEventName,
} from "../../src/protocols/caep.js";
import { buildSet, exampleClaims, signSet } from "../../mocks/transmitter/set.js";
import { audienceOf, type CaepReceiverProfile } from "./profile.js";
import { Subjects, type FreshSubject, type SubId } from "./subjects.js";
import { TransmitterClient } from "../../mocks/transmitter/client.js";
import type { StreamView } from "../../mocks/transmitter/types.js";
import { deliver } from "./delivery.js";

/** A stream the mock knows: created by the Receiver, or given by the profile. */
export type StreamInfo = StreamView;

type Ctx = CheckContext<CaepReceiverProfile>;

/** What the suite's setup hands to the checks (suite.ts). */
export interface CaepReceiverProvided {
  /** Where the checks reach the mock Transmitter (its control routes). */
  readonly mockUrl: string;
  readonly controlToken: string;
  /** The issuer of every SET (and of the SSF configuration). */
  readonly issuer: string;
  /** The Transmitter's current private signing key (JSON, with alg and kid). */
  readonly signingKey: string;
}

/** An event of a SET: a CAEP event name, the SSF verification event, or any URI. */
export type EventRef = CaepEventName | "verification" | (string & {});

export interface SetOptions {
  /** The event's claims; default `exampleClaims(event, "required")` (none for verification or a URI). */
  readonly claims?: Record<string, unknown>;
  /** The SET's sub_id; default a fresh user (by email) the Receiver does not know. */
  readonly subject?: SubId | Record<string, unknown>;
  /** Top-level claims to set; a value `undefined` removes that claim. */
  readonly payload?: Record<string, unknown>;
  /** Top-level claims to delete. */
  readonly omit?: readonly string[];
  /** Header members to set; a value `undefined` removes that member. */
  readonly header?: Record<string, unknown>;
  /** Sign with this private JWK instead of the Transmitter's (its alg and kid). */
  readonly key?: JWK;
  /** Last edit of the payload before signing (an extra event, a nested change). */
  readonly edit?: (payload: Record<string, unknown>) => void;
}

export interface BuiltSet {
  readonly jti: string;
  readonly token: string;
  readonly payload: Record<string, unknown>;
}

/** Whether the Receiver takes a valid SET about a subject it does not know, and what it answered. */
export interface UnknownSubjects {
  readonly accepted: boolean;
  readonly said: string;
}

const streamCache = new Map<string, StreamInfo>();
/** Per mock: the one control SET about an unknown user, asked once and remembered (see `unknownSubjects`). */
const unknownCache = new Map<string, Promise<UnknownSubjects>>();

/**
 * The Transmitter's side toward the Receiver for the checks: signs SETs with the Transmitter's
 * key (the one its jwks_uri publishes), knows the Receiver's stream, and reaches the mock
 * Transmitter's control routes. Sending is `delivery.ts`.
 */
export class ReceiverClient {
  readonly issuer: string;
  readonly audience: string;
  readonly mock: TransmitterClient;
  readonly subjects: Subjects;
  readonly provided: CaepReceiverProvided;
  private readonly jwk: JWK;

  constructor(readonly c: Ctx) {
    this.provided = c.provided as unknown as CaepReceiverProvided;
    this.issuer = this.provided.issuer;
    this.audience = audienceOf(c.profile);
    c.secret(this.provided.controlToken, "MOCK_CONTROL_TOKEN");
    c.secret(this.provided.signingKey, "TRANSMITTER_SIGNING_KEY");
    this.jwk = JSON.parse(this.provided.signingKey) as JWK;
    this.mock = new TransmitterClient(this.provided.mockUrl, this.provided.controlToken);
    this.subjects = new Subjects(c.runId, this.issuer);
  }

  /** The Transmitter's private signing key (with alg and kid), for checks that forge from it. */
  get signingKey(): JWK {
    return this.jwk;
  }

  /**
   * The Receiver's stream: the one it created at the mock (waited for, bounded by
   * `streamSetupTimeoutMs`), or the profile's preconfigured one. Skips the check when there is
   * none: nothing can be delivered.
   */
  async stream(): Promise<StreamInfo> {
    const key = this.mockKey;
    let s = streamCache.get(key);
    if (s === undefined) {
      const p = this.c.profile;
      const waited = p.stream === "receiver-creates" ? p.streamSetupTimeoutMs : 5000;
      s = await this.mock.waitForStream(waited);
      if (s === undefined || typeof s.streamId !== "string") {
        return this.c.skip(
          p.stream === "receiver-creates"
            ? `the Receiver created no stream at the mock Transmitter within ${waited} ms (see the stream set-up checks): nothing can be delivered`
            : "the mock Transmitter knows no preconfigured stream: nothing can be delivered",
          "dependency",
        );
      }
      streamCache.set(key, s);
    }
    if (s.authorization) this.c.secret(s.authorization, "PUSH_AUTHORIZATION");
    if (s.delivery === "push" && !s.endpointUrl)
      return this.c.skip(
        "the Receiver's push stream names no endpoint_url: nothing can be delivered",
        "dependency",
      );
    return s;
  }

  /** Per mock, not per URL: a later run in the same process may get a mock on the same port. */
  private get mockKey(): string {
    return `${this.provided.mockUrl}|${this.provided.controlToken}`;
  }

  /**
   * The CAEP event types the Receiver's stream delivers (SSF §8.1.1 events_delivered: what it
   * requested and the Transmitter supports; all eight for a preconfigured stream). A Receiver
   * may decline SETs of a type it did not ask for (RFC 8935 §2), so checks send only these.
   */
  async deliveredEvents(): Promise<CaepEventName[]> {
    const s = await this.stream();
    return CAEP_EVENT_NAMES.filter((n) => s.eventsDelivered.includes(eventUri(n)));
  }

  /**
   * The event type a check that is not about event types sends: session-revoked when the
   * stream delivers it, else the first CAEP type it delivers. Skips the check when it delivers none.
   */
  async carrier(): Promise<CaepEventName> {
    const delivered = await this.deliveredEvents();
    if (delivered.length === 0)
      return this.c.skip(
        "the Receiver's stream delivers no CAEP event type (events_delivered is empty: it requested none the Transmitter supports, see CAEPR-STREAM-EVENTS)",
        "dependency",
      );
    return delivered.includes("session-revoked") ? "session-revoked" : delivered[0]!;
  }

  /**
   * Whether the Receiver takes a valid SET about a user it does not know (SSF §9.3;
   * CAEPR-UNKNOWN-SUBJECT, a SHOULD): one control SET per run (of the carrier event, about a
   * fresh user by email), asked by the first check that needs to know and remembered.
   */
  async unknownSubjects(): Promise<UnknownSubjects> {
    const key = this.mockKey;
    let p = unknownCache.get(key);
    if (p === undefined) {
      p = (async () => {
        const event = await this.carrier();
        const s = await this.set(event, { subject: this.subjects.fresh().user });
        const o = await deliver(this, s.token, {
          label: `control: a valid ${event} SET about a user the Receiver does not know (email)`,
          jti: s.jti,
        });
        return { accepted: o.kind === "accepted", said: `${event} about an unknown user: ${o.said}` };
      })();
      unknownCache.set(key, p);
      // A check stopped half-way leaves the question open for the next one.
      p.catch(() => unknownCache.delete(key));
    }
    return p;
  }

  /**
   * For a check whose SETs name subjects the Receiver never saw (no session hook): when it
   * refuses such SETs, that is CAEPR-UNKNOWN-SUBJECT's finding (a SHOULD), and this check
   * could only fail for it, so it skips instead.
   */
  async unknownSubjectsOrSkip(): Promise<void> {
    const u = await this.unknownSubjects();
    if (!u.accepted)
      this.c.skip(
        `without hooks.session the SETs of this check name subjects the Receiver does not know, and it refused such a SET (${u.said}): see CAEPR-UNKNOWN-SUBJECT; give hooks.session to judge this check`,
        "needs-hook",
      );
  }

  /**
   * A fresh user with an active session at the Receiver, made by the profile's session hook
   * (`hooks.session`: POST `{user, session}`); undefined when the profile gives no hook. A hook
   * that does not answer 2xx is a setup problem of the profile, remembered for the run.
   */
  async session(label = "session hook"): Promise<FreshSubject | undefined> {
    const hook = this.c.profile.hooks.session;
    if (hook === undefined) return undefined;
    const s = this.subjects.fresh();
    await this.c.setup("caep-receiver.hooks.session", async () => {
      const res = await this.c.http.post(hook.url, {
        json: { user: s.user, session: s.session },
        ...(hook.headers ? { headers: hook.headers } : {}),
        label,
        tags: ["hook"],
      });
      if (res.status < 200 || res.status > 299)
        throw new SetupError(
          "suites.caep-receiver.hooks.session",
          `the hook answered ${res.status} (${quote(res.text, 120)}); it must answer 2xx once the session is active`,
        );
    });
    return s;
  }

  /**
   * The subject a SET of `event` names in checks that are not about subjects: a session the
   * Receiver knows (complex {user, session} for session events, the user by email otherwise)
   * when the profile gives the session hook, so the SET is judged for what it is and not for its
   * subject; else a fresh one the Receiver does not know, once it showed it takes such SETs
   * (the check skips when it does not: `unknownSubjectsOrSkip`).
   */
  async subjectFor(event: EventRef): Promise<SubId> {
    const known = await this.session(`session hook (for ${event})`);
    if (known === undefined) await this.unknownSubjectsOrSkip();
    const s = known ?? this.subjects.fresh();
    return typeof event === "string" && event.startsWith("session-") ? s.complex : s.user;
  }

  /** The URI of an event reference. */
  uriOf(event: EventRef): string {
    if (event === "verification") return SSF_VERIFICATION_EVENT;
    return event.includes(":") ? event : eventUri(event as CaepEventName);
  }

  /** The payload of a valid SET of `event` (before `o`'s changes other than claims and subject). */
  payloadOf(event: EventRef, o: SetOptions = {}): Record<string, unknown> {
    const named = !event.includes(":") && event !== "verification";
    const claims = o.claims ?? (named ? exampleClaims(event as CaepEventName, "required") : {});
    const payload = buildSet({
      issuer: this.issuer,
      audience: this.audience,
      event,
      claims,
      subject: o.subject ?? this.subjects.fresh().user,
    });
    for (const [k, v] of Object.entries(o.payload ?? {})) {
      if (v === undefined) delete payload[k];
      else payload[k] = v;
    }
    for (const k of o.omit ?? []) delete payload[k];
    o.edit?.(payload);
    return payload;
  }

  /** A signed SET of `event`: valid unless `o` says otherwise. */
  async set(event: EventRef, o: SetOptions = {}): Promise<BuiltSet> {
    const payload = this.payloadOf(event, o);
    const token = await this.sign(payload, o.header, o.key);
    // A SET without a (string) jti still needs a key for the poll mock to file it under.
    const jti = typeof payload.jti === "string" ? payload.jti : `idc-nojti-${randomBytes(6).toString("hex")}`;
    return { jti, token, payload };
  }

  /** Signs a payload as a SET (typ secevent+jwt, the key's alg and kid, then `header`). */
  async sign(
    payload: Record<string, unknown> | string,
    header: Record<string, unknown> = {},
    key: JWK = this.jwk,
  ): Promise<string> {
    const token = await signSet(payload, key, header);
    this.hideSignature(token);
    return token;
  }

  /** The evidence keeps a SET's header and claims, never a signature that could be replayed. */
  hideSignature(token: string): void {
    const signature = token.split(".")[2];
    if (signature !== undefined && signature.length >= 16) this.c.secret(signature, "SET_SIGNATURE");
  }
}
