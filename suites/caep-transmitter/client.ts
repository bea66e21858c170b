import { randomBytes } from "node:crypto";
import type { CheckContext } from "../../src/engine/check.js";
import { SetupError } from "../../src/engine/errors.js";
import { quote } from "../../src/engine/quote.js";
import type { HttpResponse } from "../../src/http/client.js";
import { DELIVERY_POLL, DELIVERY_PUSH, ssfConfigurationUrl } from "../../src/protocols/caep.js";
import { ReceiverClient } from "../../mocks/receiver/client.js";
import { addSlot, addStream, dropStream, type ReceiverId } from "./ledger.js";
import type { CaepTransmitterProfile, DeliveryMethod } from "./profile.js";
import { Subjects, type SubId } from "./subjects.js";
import {
  CAEP_EVENT_URIS,
  methodUrn,
  type CaepTransmitterProvided,
  type CallOptions,
  type Discovery,
  type EndpointName,
  type OpenOptions,
  type Stream,
} from "./stream-types.js";

export type { ReceiverId } from "./ledger.js";
export {
  CAEP_EVENT_URIS,
  ENDPOINTS,
  methodUrn,
  type CaepTransmitterProvided,
  type CallOptions,
  type Discovery,
  type EndpointName,
  type OpenOptions,
  type Stream,
} from "./stream-types.js";
type Ctx = CheckContext<CaepTransmitterProfile>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

const discoveries = new Map<string, Discovery>();

/**
 * Receiver A's (or B's) side of the Transmitter's stream management API (SSF §8) for the checks:
 * every call goes through the check's recording client with the profile's token, so each is
 * evidence. Knows the discovery document (read once per run and worker), the mock Receiver's
 * slots, and the run's ledger: each stream it creates is noted there, so the end-of-run clean-up
 * deletes what a check could not.
 */
export class StreamClient {
  readonly provided: CaepTransmitterProvided;
  readonly mock: ReceiverClient;
  readonly subjects: Subjects;
  readonly token: string;
  /** Slots this client made, by the endpoint_url given for them. */
  private readonly slotsByUrl = new Map<string, string>();

  constructor(
    readonly c: Ctx,
    readonly receiver: ReceiverId = "first",
  ) {
    this.provided = c.provided as unknown as CaepTransmitterProvided;
    c.secret(this.provided.controlToken, "MOCK_CONTROL_TOKEN");
    this.mock = new ReceiverClient(this.provided.receiverUrl, this.provided.controlToken);
    this.subjects = new Subjects(c.runId, c.profile.subjects);
    const t = receiver === "first" ? c.profile.receiverToken : c.profile.secondReceiverToken;
    if (t === undefined)
      c.skip(
        "not declared: the profile gives no suites.caep-transmitter.secondReceiverToken (another receiver's token)",
        "not-declared",
      );
    this.token = t;
  }

  /** The Transmitter's issuer: the profile's baseUrl (SSF §7.2: the URL discovery is read from). */
  get issuer(): string {
    return this.c.profile.baseUrl;
  }

  /** A StreamClient of the other receiver (B), for isolation checks; skips when the profile has none. */
  other(): StreamClient {
    return new StreamClient(this.c, this.receiver === "first" ? "second" : "first");
  }

  /**
   * The discovery document, read at the well-known URL (once per run and worker). A Transmitter
   * whose document cannot be read offers nothing to test: the check skips (the discovery checks
   * say why).
   */
  async discovery(): Promise<Discovery> {
    const key = `${this.c.runId}|${this.issuer}`;
    const known = discoveries.get(key);
    if (known) return known;
    const url = ssfConfigurationUrl(this.issuer);
    const res = await this.c.http.get(url, { label: "discovery", tags: ["discovery"] });
    if (res.status !== 200 || !isObject(res.json))
      return this.c.skip(
        `the Transmitter's discovery document at ${url} could not be read (answered ${res.status}${res.jsonError ? ", not JSON" : isObject(res.json) ? "" : ", not a JSON object"}; see CAEPT-DISC-WELL-KNOWN)`,
        "dependency",
      );
    const d = { url, doc: res.json };
    discoveries.set(key, d);
    return d;
  }

  /** An endpoint of the discovery document; the check skips ("not offered") when it is absent. */
  async endpoint(name: EndpointName): Promise<string> {
    const v = (await this.discovery()).doc[name];
    if (typeof v !== "string" || !URL.canParse(v))
      return this.c.skip(
        `not offered: the discovery document names no usable ${name} (${quote(v ?? null, 80)})`,
        "not-offered",
      );
    return v;
  }

  /** The delivery methods to test: the profile's, else those the discovery document offers. */
  async methods(): Promise<DeliveryMethod[]> {
    if (this.c.profile.delivery) return [...this.c.profile.delivery];
    const offered = (await this.discovery()).doc.delivery_methods_supported;
    const list = Array.isArray(offered) ? offered : [];
    const out: DeliveryMethod[] = [];
    if (list.includes(DELIVERY_PUSH)) out.push("push");
    if (list.includes(DELIVERY_POLL)) out.push("poll");
    return out;
  }

  /** Headers of a call: the Authorization the options ask for, and JSON. */
  private headers(o: CallOptions): Record<string, string> {
    if (o.authorization !== undefined) return { authorization: o.authorization };
    const t = o.token === undefined ? this.token : o.token;
    return t === null ? {} : { authorization: `Bearer ${t}` };
  }

  /** One stream management request, recorded as evidence. */
  async call(
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    endpoint: EndpointName,
    o: CallOptions & { query?: Record<string, string>; json?: unknown } = {},
  ): Promise<HttpResponse> {
    const u = new URL(await this.endpoint(endpoint));
    for (const [k, v] of Object.entries(o.query ?? {})) u.searchParams.set(k, v);
    return this.c.http.send({
      method,
      url: u,
      headers: this.headers(o),
      ...(o.json !== undefined ? { json: o.json } : {}),
      label: o.label ?? `${method} ${endpoint}`,
      tags: ["stream-management", ...(o.tags ?? [])],
      ...(o.evidence ? { evidence: o.evidence } : {}),
    });
  }

  /** A description that names the run, so a stream left behind can be told apart. */
  description(what: string): string {
    return `idconform ${this.c.runId} ${what}`.slice(0, 200);
  }

  /**
   * POST configuration_endpoint (SSF §8.1.1.1). A 201 with a stream_id is noted in the run's
   * ledger at once, whatever else is wrong with the answer.
   */
  async create(body: Record<string, unknown>, o: CallOptions = {}): Promise<HttpResponse> {
    const res = await this.call("POST", "configuration_endpoint", {
      ...o,
      json: body,
      label: o.label ?? "create stream",
    });
    const id = isObject(res.json) ? res.json.stream_id : undefined;
    if (res.status >= 200 && res.status < 300 && typeof id === "string" && id !== "") {
      await addStream(this.provided.runDir, {
        streamId: id,
        receiver: this.receiver,
        check: o.label ?? "create stream",
      });
      // The every-SET pass judges a pushed SET's aud against its stream's.
      const d = isObject(body.delivery) ? body.delivery : {};
      const slot = typeof d.endpoint_url === "string" ? this.slotsByUrl.get(d.endpoint_url) : undefined;
      if (slot !== undefined)
        await addSlot(this.provided.runDir, {
          slot,
          streamId: id,
          ...(isObject(res.json) && res.json.aud !== undefined ? { audience: res.json.aud } : {}),
        });
    }
    return res;
  }

  /** The create request of a stream delivered by `method` (push to a fresh mock Receiver slot). */
  async createBody(
    method: DeliveryMethod,
    o: OpenOptions = {},
  ): Promise<{ body: Record<string, unknown>; slot?: string; authorization?: string }> {
    const events = [...(o.events ?? CAEP_EVENT_URIS)];
    let delivery: Record<string, unknown> = { method: methodUrn(method) };
    let slot: string | undefined;
    let authorization: string | undefined;
    if (method === "push") {
      // A fresh secret per stream: the mock answers 401 to pushes without exactly this value.
      authorization = `Bearer idc-push-${randomBytes(18).toString("base64url")}`;
      this.c.secret(authorization, "PUSH_AUTHORIZATION");
      const s = await this.mock.createSlot({ authorization });
      slot = s.slot;
      this.slotsByUrl.set(s.endpointUrl, s.slot);
      delivery = { ...delivery, endpoint_url: s.endpointUrl, authorization_header: authorization };
    }
    const body: Record<string, unknown> = {
      delivery,
      events_requested: events,
      description: this.description(o.label ?? "stream"),
    };
    for (const [k, v] of Object.entries(o.body ?? {})) {
      if (v === undefined) delete body[k];
      else body[k] = v;
    }
    return { body, ...(slot ? { slot } : {}), ...(authorization ? { authorization } : {}) };
  }

  /**
   * A stream delivered by `method`, created for a check that is not about creation: the check
   * skips ("dependency", see CAEPT-STREAM-CREATE) when the Transmitter does not create it.
   */
  async open(method: DeliveryMethod, o: OpenOptions = {}): Promise<Stream> {
    const { body, slot, authorization } = await this.createBody(method, o);
    const res = await this.create(body, { ...o, label: o.label ?? `create ${method} stream` });
    const s = this.streamOf(res, method, slot, authorization);
    if (s === undefined)
      return this.c.skip(
        `the Transmitter did not create a ${method} stream (answered ${res.status}${isObject(res.json) ? "" : ", no JSON object"}; see CAEPT-STREAM-CREATE)`,
        "dependency",
      );
    return s;
  }

  /** The stream a create answer describes, or undefined when it is not a 2xx with a stream_id. */
  streamOf(
    res: HttpResponse,
    method: DeliveryMethod,
    slot?: string,
    authorization?: string,
  ): Stream | undefined {
    const j = res.json;
    if (res.status < 200 || res.status > 299 || !isObject(j)) return undefined;
    if (typeof j.stream_id !== "string" || j.stream_id === "") return undefined;
    const d = isObject(j.delivery) ? j.delivery : {};
    const delivered = Array.isArray(j.events_delivered)
      ? j.events_delivered.filter((e): e is string => typeof e === "string")
      : [];
    const endpointUrl = typeof d.endpoint_url === "string" ? d.endpoint_url : undefined;
    return {
      id: j.stream_id,
      method,
      receiver: this.receiver,
      config: j,
      delivered,
      ...(slot ? { slot } : {}),
      ...(authorization ? { authorization } : {}),
      ...(endpointUrl ? { endpointUrl } : {}),
    };
  }

  /** GET configuration_endpoint?stream_id= (SSF §8.1.1.2). */
  read(id: string, o: CallOptions = {}): Promise<HttpResponse> {
    return this.call("GET", "configuration_endpoint", {
      ...o,
      query: { stream_id: id },
      label: o.label ?? "read stream",
    });
  }

  /** GET configuration_endpoint without stream_id: every stream of this receiver (SSF §8.1.1.2). */
  list(o: CallOptions = {}): Promise<HttpResponse> {
    return this.call("GET", "configuration_endpoint", { ...o, label: o.label ?? "list streams" });
  }

  /** PATCH configuration_endpoint (SSF §8.1.1.3). */
  update(id: string, changes: Record<string, unknown>, o: CallOptions = {}): Promise<HttpResponse> {
    return this.call("PATCH", "configuration_endpoint", {
      ...o,
      json: { stream_id: id, ...changes },
      label: o.label ?? "update stream",
    });
  }

  /** PUT configuration_endpoint (SSF §8.1.1.4). */
  replace(id: string, config: Record<string, unknown>, o: CallOptions = {}): Promise<HttpResponse> {
    return this.call("PUT", "configuration_endpoint", {
      ...o,
      json: { stream_id: id, ...config },
      label: o.label ?? "replace stream",
    });
  }

  /** DELETE configuration_endpoint?stream_id= (SSF §8.1.1.5); a stream gone is dropped from the ledger. */
  async remove(id: string, o: CallOptions = {}): Promise<HttpResponse> {
    const res = await this.call("DELETE", "configuration_endpoint", {
      ...o,
      query: { stream_id: id },
      label: o.label ?? "delete stream",
    });
    if (res.status === 204 || res.status === 200 || res.status === 404)
      await dropStream(this.provided.runDir, id);
    return res;
  }

  /** GET status_endpoint?stream_id= (SSF §8.1.2.1). */
  status(id: string, o: CallOptions = {}): Promise<HttpResponse> {
    return this.call("GET", "status_endpoint", {
      ...o,
      query: { stream_id: id },
      label: o.label ?? "read status",
    });
  }

  /** POST status_endpoint (SSF §8.1.2.2). */
  setStatus(
    id: string,
    status: "enabled" | "paused" | "disabled" | (string & {}),
    o: CallOptions & { reason?: string } = {},
  ): Promise<HttpResponse> {
    return this.call("POST", "status_endpoint", {
      ...o,
      json: { stream_id: id, status, ...(o.reason !== undefined ? { reason: o.reason } : {}) },
      label: o.label ?? `set status ${status}`,
    });
  }

  /** POST add_subject_endpoint (SSF §8.1.3.2). */
  addSubject(
    id: string,
    subject: SubId,
    o: CallOptions & { verified?: boolean } = {},
  ): Promise<HttpResponse> {
    return this.call("POST", "add_subject_endpoint", {
      ...o,
      json: { stream_id: id, subject, ...(o.verified !== undefined ? { verified: o.verified } : {}) },
      label: o.label ?? "add subject",
    });
  }

  /** POST remove_subject_endpoint (SSF §8.1.3.3). */
  removeSubject(id: string, subject: SubId, o: CallOptions = {}): Promise<HttpResponse> {
    return this.call("POST", "remove_subject_endpoint", {
      ...o,
      json: { stream_id: id, subject },
      label: o.label ?? "remove subject",
    });
  }

  /** POST verification_endpoint (SSF §8.1.4.2). */
  verify(id: string, state?: string, o: CallOptions = {}): Promise<HttpResponse> {
    return this.call("POST", "verification_endpoint", {
      ...o,
      json: { stream_id: id, ...(state !== undefined ? { state } : {}) },
      label: o.label ?? "request verification",
    });
  }

  /**
   * A fresh subject added to the stream (the reference of `default_subjects: NONE` Transmitters,
   * which send nothing about subjects not added); the check skips when the add is refused.
   */
  async subscribe(s: Stream, label = "add subject"): Promise<SubId> {
    const subject = this.subjects.fresh();
    const res = await this.addSubject(s.id, subject, { verified: true, label });
    // Any success will do here: the exact status is CAEPT-SUBJECT-ADD's to judge.
    if (res.status < 200 || res.status > 299)
      return this.c.skip(
        `the Transmitter did not add a subject to the stream (answered ${res.status}; see CAEPT-SUBJECT-ADD)`,
        "dependency",
      );
    return subject;
  }

  /**
   * Makes the Transmitter emit `event` about `subject` through the profile's trigger hook (POST
   * `{event, subject, stream_id?, claims?}`). Without a hook the check skips ("needs hook"); a
   * hook that does not answer 2xx is a setup problem of the profile, remembered for the run.
   */
  async trigger(
    event: string,
    subject: SubId,
    o: {
      streamId?: string;
      claims?: Record<string, unknown>;
      label?: string;
      evidence?: "if-cited";
    } = {},
  ): Promise<void> {
    const hook = this.c.profile.hooks.trigger;
    if (hook === undefined)
      this.c.skip(
        "needs hook: the profile gives no suites.caep-transmitter.hooks.trigger (a POST that makes the Transmitter emit an event)",
        "needs-hook",
      );
    await this.c.setup("caep-transmitter.hooks.trigger", async () => {
      const res = await this.c.http.post(hook.url, {
        json: {
          event,
          subject,
          ...(o.streamId !== undefined ? { stream_id: o.streamId } : {}),
          ...(o.claims !== undefined ? { claims: o.claims } : {}),
        },
        ...(hook.headers ? { headers: hook.headers } : {}),
        label: o.label ?? `trigger ${event.slice(event.lastIndexOf("/") + 1)}`,
        tags: ["hook"],
        ...(o.evidence ? { evidence: o.evidence } : {}),
      });
      if (res.status < 200 || res.status > 299)
        throw new SetupError(
          "suites.caep-transmitter.hooks.trigger",
          `the hook answered ${res.status} (${quote(res.text, 120)}); it must answer 2xx once the event is emitted`,
        );
    });
  }

  /** Deletes a stream at the end of a check; what fails is left for the end-of-run clean-up. */
  async close(s: Stream | string): Promise<void> {
    const id = typeof s === "string" ? s : s.id;
    try {
      await this.remove(id, { label: "clean up: delete stream" });
    } catch {
      // the clean-up sweep deletes it
    }
  }
}
