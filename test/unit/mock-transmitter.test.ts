import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  compactVerify,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
} from "jose";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  CAEP_EVENT_NAMES,
  EVENT_CLAIMS,
  SSF_VERIFICATION_EVENT,
  SUBJECT_FORMAT_NAMES,
  eventProblems,
  eventUri,
  subjectProblems,
} from "../../src/protocols/caep.js";
import { startTransmitter, type MockTransmitter } from "../../mocks/transmitter/index.js";
import { TransmitterClient } from "../../mocks/transmitter/client.js";
import {
  ALL_CLAIM_NAMES,
  buildSet,
  exampleClaims,
  exampleSubject,
  signSet,
} from "../../mocks/transmitter/set.js";
import { parseSubject, transmitterCommand } from "../../mocks/transmitter/cli.js";
import { pushMany } from "../../mocks/transmitter/pusher.js";

const TOKEN = "receiver-token-abc";
const json = { "content-type": "application/json" };

async function call(
  url: string,
  o: { method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE"; body?: unknown; token?: string | null } = {},
) {
  const res = await request(url, {
    method: o.method ?? (o.body === undefined ? "GET" : "POST"),
    headers: {
      ...(o.body !== undefined ? json : {}),
      ...(o.token !== null ? { authorization: `Bearer ${o.token ?? TOKEN}` } : {}),
    },
    body: o.body === undefined ? null : typeof o.body === "string" ? o.body : JSON.stringify(o.body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.body.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.statusCode, headers: res.headers, body: body as Record<string, unknown> & unknown[] };
}

/** A loopback Receiver push endpoint: records every push and answers 202 at once. */
interface FakeReceiver {
  url: string;
  pushes: { headers: IncomingMessage["headers"]; body: string }[];
  next(): Promise<{ headers: IncomingMessage["headers"]; body: string }>;
  close(): Promise<void>;
}
async function fakeReceiver(): Promise<FakeReceiver> {
  const pushes: FakeReceiver["pushes"] = [];
  let waiters: ((p: FakeReceiver["pushes"][number]) => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const p = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      pushes.push(p);
      res.writeHead(202).end();
      const w = waiters;
      waiters = [];
      for (const f of w) f(p);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ssf/push`,
    pushes,
    next: () => new Promise((r) => waiters.push(r)),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

describe("SET builder (SSF SET rules, specs/002 area B envelope, public-spec-facts §4)", () => {
  it("gives valid required and full claims for every CAEP event type", () => {
    for (const name of CAEP_EVENT_NAMES) {
      const required = exampleClaims(name, "required");
      const full = exampleClaims(name, "full");
      expect(eventProblems(eventUri(name), required)).toEqual([]);
      expect(eventProblems(eventUri(name), full)).toEqual([]);
      const must = Object.entries(EVENT_CLAIMS[name]).filter(([, r]) => r.required);
      for (const [claim] of must) expect(required).toHaveProperty(claim);
      expect(Object.keys(full).sort()).toEqual(ALL_CLAIM_NAMES(name).sort());
    }
  });

  it("gives a valid subject of every format, different per seed", () => {
    for (const f of SUBJECT_FORMAT_NAMES) {
      const s = exampleSubject(f, 1);
      expect(subjectProblems(s)).toEqual([]);
      expect(s.format).toBe(f);
      expect(exampleSubject(f, 2)).not.toEqual(s);
      expect(exampleSubject(f, 1)).toEqual(s);
    }
  });

  it("builds a SET with the required claims, one event, no sub and no exp, and signs it as secevent+jwt", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const priv = { ...(await exportJWK(privateKey)), kid: "k1" };
    const p = buildSet({
      issuer: "https://tx.example",
      audience: ["a", "b"],
      event: "credential-change",
      now: 1000,
    });
    expect(Object.keys(p).sort()).toEqual(["aud", "events", "iat", "iss", "jti", "sub_id", "txn"]);
    expect(p.iat).toBe(1000);
    expect(p.events).toEqual({
      [eventUri("credential-change")]: exampleClaims("credential-change", "required"),
    });
    const token = await signSet(p, priv);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", typ: "secevent+jwt", kid: "k1" });
    const { payload } = await compactVerify(token, publicKey);
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(p);
    const bare = await signSet(p, priv, { typ: undefined, kid: "other" });
    expect(decodeProtectedHeader(bare)).toEqual({ alg: "ES256", kid: "other" });
    const notJson = await signSet("not json", priv);
    expect(Buffer.from(notJson.split(".")[1]!, "base64url").toString()).toBe("not json");
    const v = buildSet({ issuer: "i", audience: "a", event: "verification", claims: { state: "s" } });
    expect(v.events).toEqual({ [SSF_VERIFICATION_EVENT]: { state: "s" } });
  });

  it("reads command-line subjects", () => {
    expect(parseSubject("email:a@example.com")).toEqual({ format: "email", email: "a@example.com" });
    expect(parseSubject("opaque:x:y")).toEqual({ format: "opaque", id: "x:y" });
    expect(parseSubject("iss_sub:https://idp.example/,alice")).toEqual({
      format: "iss_sub",
      iss: "https://idp.example/",
      sub: "alice",
    });
    expect(parseSubject('{"format":"complex","user":{"format":"email","email":"a@b.c"}}').format).toBe(
      "complex",
    );
    expect(() => parseSubject("complex:x")).toThrow(/JSON/);
    expect(() => parseSubject("nothing")).toThrow(/format/);
  });
});

describe("discovery and jwks_uri (SSF discovery; public-spec-facts §4)", () => {
  let t: MockTransmitter;
  beforeAll(async () => {
    t = await startTransmitter({ issuer: "https://tx.example/tenant/a", deliveryMethods: ["poll"] });
  });
  afterAll(() => t.close());

  it("serves discovery with the issuer's path after the well-known segment, and records wrong places", async () => {
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.discoveryUrl).toBe("https://tx.example/.well-known/ssf-configuration/tenant/a");
    const d = await call(`${t.url}/.well-known/ssf-configuration/tenant/a`, { token: null });
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({
      issuer: "https://tx.example/tenant/a",
      spec_version: "1_0",
      jwks_uri: `${t.url}/jwks`,
      delivery_methods_supported: ["urn:ietf:rfc:8936"],
      configuration_endpoint: `${t.url}/ssf/stream`,
      verification_endpoint: `${t.url}/ssf/verify`,
    });
    expect((await call(`${t.url}/tenant/a/.well-known/ssf-configuration`, { token: null })).status).toBe(404);
    const paths = t.control.entries().map((e) => e.path);
    expect(paths).toEqual([
      "/.well-known/ssf-configuration/tenant/a",
      "/tenant/a/.well-known/ssf-configuration",
    ]);
    // The control view of the same document is not logged as the Receiver's request.
    const conf = await new TransmitterClient(t.url, t.controlToken).configuration();
    expect(conf).toEqual({
      ...d.body,
      events_supported: [...CAEP_EVENT_NAMES.map(eventUri), SSF_VERIFICATION_EVENT],
      discoveryPath: "/.well-known/ssf-configuration/tenant/a",
    });
    expect(t.control.entries()).toHaveLength(2);
  });

  it("publishes exactly the key set it is given and counts the fetches", async () => {
    const c = new TransmitterClient(t.url, t.controlToken);
    const first = await call(`${t.url}/jwks`, { token: null });
    // The key set changes during a run: a Receiver must not keep it without asking again.
    expect(first.headers["cache-control"]).toBe("no-cache");
    expect(first.body).toEqual({ keys: [expect.objectContaining({ kid: t.signingKey.kid, kty: "EC" })] });
    expect(JSON.stringify(first.body)).not.toContain('"d"');
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const pub = { ...(await exportJWK(publicKey)), kid: "rotated", alg: "ES256" };
    await c.publishJwks([pub]);
    expect((await call(`${t.url}/jwks`, { token: null })).body).toEqual({ keys: [pub] });
    const fetches = await c.jwksFetches();
    expect(fetches.count).toBe(2);
    expect(fetches.times).toHaveLength(2);
    await expect(c.publishJwks([{ ...pub, ...(await exportJWK(privateKey)) }])).rejects.toThrow(
      /400.*private/,
    );
    const priv = { ...(await exportJWK(privateKey)), kid: "rotated" };
    await c.publishJwks([pub], priv);
    expect(t.signingKey.kid).toBe("rotated");
    expect((await call(`${t.url}/__idc/streams`, { token: null })).status).toBe(403);
  });

  it("lets a check wait for the next fetch of jwks_uri instead of sleeping", async () => {
    const c = new TransmitterClient(t.url, t.controlToken);
    const { count } = await c.jwksFetches();
    expect((await c.waitForJwksFetch(count, 50)).count).toBe(count);
    const waiting = c.waitForJwksFetch(count, 5000);
    await call(`${t.url}/jwks`, { token: null });
    expect((await waiting).count).toBe(count + 1);
    expect((await call(`${t.url}/__idc/jwks/fetches/wait?after=-1`, { token: null })).status).toBe(403);
  });
});

describe("push streams a Receiver creates (SSF stream management, RFC 8935)", () => {
  let t: MockTransmitter;
  let rx: FakeReceiver;
  let c: TransmitterClient;
  beforeAll(async () => {
    rx = await fakeReceiver();
    t = await startTransmitter({
      receiverToken: TOKEN,
      audience: "https://rp.example",
      deliveryMethods: ["push"],
    });
    c = new TransmitterClient(t.url, t.controlToken);
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });
  const stream = (): string => `${t.url}/ssf/stream`;

  it("refuses stream management without the Receiver's token, with a challenge, and logs no token", async () => {
    const body = { delivery: { method: "urn:ietf:rfc:8935", endpoint_url: rx.url } };
    const none = await call(stream(), { body, token: null });
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer realm=/);
    const wrong = await call(stream(), { body, token: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toContain('error="invalid_token"');
    const log = await c.log("/ssf/stream");
    expect(log.map((e) => e.headers.authorization)).toEqual([undefined, "wrong"]);
    expect(JSON.stringify(await c.log())).not.toContain("nope");
    expect(await c.streams()).toEqual([]);
  });

  it("answers garbage and impossible streams with a 400 JSON error", async () => {
    for (const body of [
      "{not json",
      "[]",
      { delivery: "push" },
      { delivery: { method: "urn:ietf:rfc:8936" } },
      { delivery: { method: "urn:ietf:rfc:8935" } },
      { delivery: { method: "urn:ietf:rfc:8935", endpoint_url: "/relative" } },
      { delivery: { method: "urn:ietf:rfc:8935", endpoint_url: rx.url }, events_requested: "all" },
    ]) {
      const r = await call(stream(), { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe("invalid_request");
    }
    expect(await c.streams()).toEqual([]);
  });

  it("creates, reads, updates and deletes a push stream, and pushes the verification SET with its state", async () => {
    const waiting = c.waitForStream(5000);
    const created = await call(stream(), {
      body: {
        delivery: {
          method: "urn:ietf:rfc:8935",
          endpoint_url: rx.url,
          authorization_header: "Bearer push-secret",
        },
        events_requested: [eventUri("session-revoked"), "https://example.com/unknown"],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.stream_id as string;
    expect(created.body).toMatchObject({
      iss: t.issuer,
      aud: "https://rp.example",
      delivery: { method: "urn:ietf:rfc:8935", endpoint_url: rx.url },
      events_delivered: [eventUri("session-revoked")],
    });
    expect(JSON.stringify(created.body)).not.toContain("push-secret");
    const seen = await waiting;
    expect(seen).toMatchObject({
      streamId: id,
      delivery: "push",
      endpointUrl: rx.url,
      authorization: "Bearer push-secret",
      createdBy: "receiver",
    });
    expect((seen?.request as { events_requested: string[] }).events_requested).toHaveLength(2);

    expect((await call(`${stream()}?stream_id=${id}`)).body.stream_id).toBe(id);
    expect((await call(stream())).body).toHaveLength(1);
    const patched = await call(stream(), { method: "PATCH", body: { stream_id: id, description: "d" } });
    expect(patched.body).toMatchObject({
      stream_id: id,
      description: "d",
      delivery: { endpoint_url: rx.url },
    });
    const put = await call(stream(), {
      method: "PUT",
      body: {
        stream_id: id,
        delivery: {
          method: "urn:ietf:rfc:8935",
          endpoint_url: rx.url,
          authorization_header: "Bearer push-secret",
        },
      },
    });
    // A replacement without events_requested deletes it (SSF §8.1.1.4): every supported type again.
    expect(put.body).not.toHaveProperty("events_requested");
    expect(put.body.events_delivered).toEqual([...CAEP_EVENT_NAMES.map(eventUri), SSF_VERIFICATION_EVENT]);
    expect(put.body).not.toHaveProperty("description");

    const pushed = rx.next();
    expect((await call(`${t.url}/ssf/verify`, { body: { stream_id: id, state: "st-1" } })).status).toBe(204);
    const p = await pushed;
    expect(p.headers["content-type"]).toBe("application/secevent+jwt");
    expect(p.headers.authorization).toBe("Bearer push-secret");
    const jwks = createLocalJWKSet((await call(`${t.url}/jwks`, { token: null })).body as never);
    const { payload, protectedHeader } = await compactVerify(p.body, jwks);
    expect(protectedHeader.typ).toBe("secevent+jwt");
    const set = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    expect(set).toMatchObject({
      iss: t.issuer,
      aud: "https://rp.example",
      sub_id: { format: "opaque", id },
      events: { [SSF_VERIFICATION_EVENT]: { state: "st-1" } },
    });
    expect((await c.streams())[0]?.verification?.state).toBe("st-1");
    // The harness waits for the verification SET to be answered, not for a fixed time.
    expect((await c.waitForVerification(id, 5000))?.verification).toMatchObject({
      state: "st-1",
      requests: 1,
      delivery: { status: 202, body: "" },
    });

    expect((await call(`${t.url}/ssf/status?stream_id=${id}`)).body).toEqual({
      stream_id: id,
      status: "enabled",
    });
    const paused = await call(`${t.url}/ssf/status`, {
      body: { stream_id: id, status: "paused", reason: "r" },
    });
    expect(paused.body).toEqual({ stream_id: id, status: "paused", reason: "r" });
    expect((await call(`${t.url}/ssf/status`, { body: { stream_id: id, status: "off" } })).status).toBe(400);
    await expect(c.emit({ event: "session-revoked", subject: exampleSubject("email") })).rejects.toThrow(
      /409/,
    );
    await call(`${t.url}/ssf/status`, { body: { stream_id: id, status: "enabled" } });

    const subject = exampleSubject("email", 3);
    expect((await call(`${t.url}/ssf/subjects/add`, { body: { stream_id: id, subject } })).status).toBe(200);
    expect(
      (await call(`${t.url}/ssf/subjects/add`, { body: { stream_id: id, subject: { format: "x" } } })).status,
    ).toBe(400);
    expect((await call(`${t.url}/ssf/subjects/remove`, { body: { stream_id: id, subject } })).status).toBe(
      204,
    );
    expect((await call(`${t.url}/ssf/verify`, { body: { state: "x" } })).status).toBe(400);
    expect((await call(`${t.url}/ssf/verify`, { body: { stream_id: "nope" } })).status).toBe(404);
    expect((await call(`${t.url}/ssf/verify`, { body: "garbage" })).status).toBe(400);

    const emitted = rx.next();
    const a = await c.emit({
      event: "session-revoked",
      subject,
      claims: exampleClaims("session-revoked", "full"),
    });
    expect(a.delivery).toEqual({ method: "push", status: 202, body: "" });
    expect((await emitted).body).toBe(a.token);
    expect(decodeJwt(a.token)).toMatchObject({ sub_id: subject, aud: "https://rp.example", jti: a.jti });
    await expect(c.emit({ event: "nonsense", subject })).rejects.toThrow(/400/);

    expect((await call(`${stream()}?stream_id=${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`${stream()}?stream_id=${id}`)).status).toBe(404);
    await expect(c.emit({ event: "session-revoked", subject })).rejects.toThrow(/404/);
  });
});

describe("poll delivery (RFC 8936)", () => {
  let t: MockTransmitter;
  let c: TransmitterClient;
  let pollUrl: string;
  let id: string;
  const set = async (n: number): Promise<{ jti: string; token: string }> => {
    const p = buildSet({ issuer: t.issuer, audience: "a", event: "session-revoked", jti: `jti-${n}` });
    return { jti: `jti-${n}`, token: await signSet(p, t.signingKey) };
  };
  const poll = (body: unknown, token?: string | null) =>
    call(pollUrl, { body, ...(token !== undefined ? { token } : {}) });

  beforeAll(async () => {
    t = await startTransmitter({ receiverToken: TOKEN, deliveryMethods: ["poll"] });
    c = new TransmitterClient(t.url, t.controlToken);
    const created = await call(`${t.url}/ssf/stream`, {
      body: { delivery: { method: "urn:ietf:rfc:8936" }, events_requested: [eventUri("session-revoked")] },
    });
    expect(created.status).toBe(201);
    id = created.body.stream_id as string;
    pollUrl = (created.body.delivery as { endpoint_url: string }).endpoint_url;
    expect(pollUrl).toBe(`${t.url}/ssf/poll/${id}`);
  });
  afterAll(() => t.close());

  it("queues the verification SET with its state and settles it on ack", async () => {
    expect((await call(`${t.url}/ssf/verify`, { body: { stream_id: id, state: "poll-state" } })).status).toBe(
      204,
    );
    const r = await poll({ returnImmediately: true });
    expect(r.status).toBe(200);
    const [[jti, token]] = Object.entries(r.body.sets as Record<string, string>) as [[string, string]];
    expect(decodeJwt(token).events).toEqual({ [SSF_VERIFICATION_EVENT]: { state: "poll-state" } });
    expect((await c.streams())[0]?.verification).toMatchObject({ state: "poll-state", jti });
    await poll({ returnImmediately: true, ack: [jti] });
    expect((await c.outcomes(id, [jti], 1000)).outcomes[jti]).toMatchObject({
      kind: "acked",
      deliveries: 1,
      acks: 1,
    });
  });

  it("holds a poll until a SET is queued (long polling), then hands it out", async () => {
    const before = t.control.entries(`/ssf/poll/${id}`).length;
    const inFlight = poll({});
    await c.wait(`/ssf/poll/${id}`, before + 1, 5000);
    const s = await set(1);
    await c.enqueue(id, [s]);
    const r = await inFlight;
    expect(r.body).toEqual({ sets: { [s.jti]: s.token }, moreAvailable: false });
    await poll({ returnImmediately: true, ack: [s.jti] });
  });

  it("honours maxEvents and its own page size with moreAvailable, and redelivers what was not settled", async () => {
    const sets = await Promise.all([2, 3, 4, 5, 6].map(set));
    await c.enqueue(id, sets);
    const first = await poll({ maxEvents: 2, returnImmediately: true });
    expect(Object.keys(first.body.sets as object)).toEqual(["jti-2", "jti-3"]);
    expect(first.body.moreAvailable).toBe(true);
    await c.pollConfig(id, { maxPerPoll: 1 });
    const second = await poll({ maxEvents: 10, returnImmediately: true, ack: ["jti-2"] });
    // In turn: jti-3, handed out and neither acknowledged nor reported, went to the back, so the
    // page of one goes to jti-4 (an unsettled SET never keeps a small page to itself).
    expect(Object.keys(second.body.sets as object)).toEqual(["jti-4"]);
    await c.pollConfig(id, { maxPerPoll: null });
    const ackOnly = await poll({ maxEvents: 0, ack: ["jti-3"] });
    expect(ackOnly.body).toEqual({ sets: {}, moreAvailable: true });
    const outcome = c.outcomes(id, ["jti-4", "jti-5", "jti-6"], 5000);
    const third = await poll({ returnImmediately: true });
    // jti-4 comes again (handed out, not settled), after those not yet handed out.
    expect(Object.keys(third.body.sets as object)).toEqual(["jti-5", "jti-6", "jti-4"]);
    await poll({
      returnImmediately: true,
      ack: ["jti-4", "jti-6"],
      setErrs: { "jti-5": { err: "invalid_key", description: "unknown kid" } },
    });
    const o = await outcome;
    expect(o.outcomes).toEqual({
      "jti-4": { kind: "acked", deliveries: 2, acks: 1, errs: 0, unsolicited: 0 },
      "jti-5": {
        kind: "error",
        err: "invalid_key",
        description: "unknown kid",
        deliveries: 1,
        acks: 0,
        errs: 1,
        unsolicited: 0,
      },
      "jti-6": { kind: "acked", deliveries: 1, acks: 1, errs: 0, unsolicited: 0 },
    });
    // The polls that handed out or settled any of them, the earlier one of jti-4 included.
    expect(o.polls.map((p) => p.delivered)).toEqual([["jti-4"], ["jti-5", "jti-6", "jti-4"], []]);
    expect(o.polls[2]).toMatchObject({ authorization: "present", ack: ["jti-4", "jti-6"], status: 200 });
    const outcomes = await c.outcomes(id, ["jti-2", "jti-3"], 0);
    expect(outcomes.outcomes["jti-3"]).toMatchObject({ kind: "acked", deliveries: 1 });
  });

  it("replays an acknowledged SET once when told (a lost ack) and counts acks of what was not delivered", async () => {
    const s = await set(7);
    await c.enqueue(id, [s]);
    await c.pollConfig(id, { redeliverAcked: [s.jti] });
    expect(Object.keys((await poll({ returnImmediately: true })).body.sets as object)).toEqual([s.jti]);
    await poll({ maxEvents: 0, ack: [s.jti] });
    expect((await c.outcomes(id, [s.jti], 0)).outcomes[s.jti]?.kind).toBe("pending");
    expect(Object.keys((await poll({ returnImmediately: true })).body.sets as object)).toEqual([s.jti]);
    await poll({ maxEvents: 0, ack: [s.jti, "never-sent"] });
    expect((await c.outcomes(id, [s.jti], 0)).outcomes[s.jti]).toMatchObject({
      kind: "acked",
      deliveries: 2,
      acks: 2,
    });
    const last = (await c.pollLog()).at(-1);
    expect(last).toMatchObject({ unknownJtis: ["never-sent"], headers: { authorization: "present" } });
    expect(JSON.stringify(await c.pollLog())).not.toContain(TOKEN);
  });

  it("answers garbage poll bodies, a missing token and an unknown stream without crashing", async () => {
    for (const body of [
      "nope",
      "[1]",
      { maxEvents: -1 },
      { maxEvents: "2" },
      { ack: "jti" },
      { setErrs: { a: "x" } },
      { returnImmediately: "yes" },
    ]) {
      const r = await poll(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.err).toBe("invalid_request");
    }
    expect((await poll("x".repeat(70_000))).status).toBe(413);
    const anon = await poll({ returnImmediately: true }, null);
    expect(anon.status).toBe(401);
    expect((await call(`${t.url}/ssf/poll/unknown`, { body: {} })).status).toBe(404);
    const log = await c.pollLog();
    expect(log.find((e) => e.status === 401)?.authorization).toBe("absent");
    expect(log.find((e) => e.parseError)?.problems).toEqual(["the body is not JSON"]);
    expect(log.some((e) => e.problems.includes("maxEvents is not a non-negative integer"))).toBe(true);
    // Still serving.
    expect((await poll({ returnImmediately: true })).status).toBe(200);
  });

  it("emits to a poll stream by queueing the SET", async () => {
    const a = await c.emit({ event: "risk-level-change", subject: exampleSubject("complex", 1) });
    expect(a.delivery).toEqual({ method: "poll" });
    const r = await poll({ returnImmediately: true });
    expect((r.body.sets as Record<string, string>)[a.jti]).toBe(a.token);
    await poll({ maxEvents: 0, ack: [a.jti] });
  });
});

describe("counts over every poll request (RFC 8936 §2.1), past what the poll log keeps", () => {
  let t: MockTransmitter;
  let c: TransmitterClient;
  beforeAll(async () => {
    t = await startTransmitter({ receiverToken: TOKEN, deliveryMethods: ["poll"] });
    c = new TransmitterClient(t.url, t.controlToken);
  });
  afterAll(() => t.close());

  it("delivers every supported event type to a stream created without events_requested", async () => {
    const created = await call(`${t.url}/ssf/stream`, {
      body: { delivery: { method: "urn:ietf:rfc:8936" } },
    });
    expect(created.status).toBe(201);
    const all = [...CAEP_EVENT_NAMES.map(eventUri), SSF_VERIFICATION_EVENT];
    expect(created.body).not.toHaveProperty("events_requested");
    expect(created.body.events_delivered).toEqual(all);
    const view = (await c.streams()).find((v) => v.streamId === created.body.stream_id);
    expect(view).not.toHaveProperty("eventsRequested");
    expect(view?.eventsDelivered).toEqual(all);
    // An explicit empty list stays empty (SSF: it SHOULD NOT be sent, and asks for nothing).
    const none = await call(`${t.url}/ssf/stream`, {
      body: { delivery: { method: "urn:ietf:rfc:8936" }, events_requested: [] },
    });
    expect(none.body.events_delivered).toEqual([]);
  });

  it("counts each kind of poll over all of them, with the first examples, the setErrs and what was acknowledged unasked", async () => {
    const created = await call(`${t.url}/ssf/stream`, {
      body: { delivery: { method: "urn:ietf:rfc:8936" }, events_requested: [eventUri("session-revoked")] },
    });
    const id = created.body.stream_id as string;
    const pollUrl = (created.body.delivery as { endpoint_url: string }).endpoint_url;
    const poll = (body: unknown, token?: string | null) =>
      call(pollUrl, { body, ...(token !== undefined ? { token } : {}) });
    expect(await c.pollStats(id)).toBeUndefined();
    expect((await poll({ returnImmediately: true }, null)).status).toBe(401);
    expect((await poll({ returnImmediately: true }, "nope")).status).toBe(401);
    expect((await call(pollUrl, { method: "GET" })).status).toBe(404);
    expect((await poll({ maxEvents: "2" })).status).toBe(400);
    expect((await poll({ ack: Array.from({ length: 1001 }, (_, i) => `j${i}`) })).status).toBe(400);
    const sets = await Promise.all(
      [1, 2].map(async (n) => {
        const p = buildSet({ issuer: t.issuer, audience: "a", event: "session-revoked", jti: `s-${n}` });
        return { jti: `s-${n}`, token: await signSet(p, t.signingKey) };
      }),
    );
    await c.enqueue(id, sets);
    expect(Object.keys((await poll({ returnImmediately: true })).body.sets as object)).toEqual([
      "s-1",
      "s-2",
    ]);
    const trace = "Error: bad\n    at verify (/srv/app/verify.js:12:3)";
    await poll({
      returnImmediately: true,
      ack: ["s-1", "never-sent"],
      setErrs: { "s-2": { err: "invalid_key", description: `s-2: ${trace}` } },
    });
    // Acknowledged again without being handed out again.
    await poll({ returnImmediately: true, ack: ["s-1"] });
    // Acknowledged while queued, never handed out.
    const third = buildSet({ issuer: t.issuer, audience: "a", event: "session-revoked", jti: "s-3" });
    await c.enqueue(id, [{ jti: "s-3", token: await signSet(third, t.signingKey) }]);
    await poll({ maxEvents: 0, ack: ["s-3"] });
    // More polls than the poll log keeps (500): the counts still cover the first ones.
    for (let i = 0; i < 505; i++) await poll({ returnImmediately: true, maxEvents: 0 });
    const st = (await c.pollStats(id))!;
    expect(st.polls).toBe(514);
    expect(st.read).toBe(511);
    expect(st.answered).toBe(509);
    expect(st.authAbsent).toMatchObject({ count: 1, examples: [expect.objectContaining({ status: 401 })] });
    expect(st.authWrong.count).toBe(1);
    expect(st.otherMethods).toMatchObject({
      count: 1,
      examples: [expect.objectContaining({ method: "GET" })],
    });
    expect(st.formProblems).toMatchObject({
      count: 1,
      examples: [expect.objectContaining({ problems: ["maxEvents is not a non-negative integer"] })],
    });
    expect(st.overLimit.count).toBe(1);
    expect(st.unknownJtis).toMatchObject({
      count: 1,
      examples: [expect.objectContaining({ unknownJtis: ["never-sent"] })],
    });
    expect(st.setErrs).toEqual({
      total: 1,
      distinct: [
        { err: "invalid_key", description: `<jti>: ${trace}`, count: 1, firstSeq: expect.any(Number) },
      ],
      dropped: 0,
    });
    expect(st.ackAnomalies).toEqual({
      unsolicited: { count: 1, examples: [{ jti: "s-3", times: 1 }] },
      overAcked: { count: 1, examples: [{ jti: "s-1", acks: 2, deliveries: 1 }] },
    });
    expect(st.first).toHaveLength(50);
    expect(st.first[0]).toMatchObject({ authorization: "absent", status: 401 });
    expect(st.last).toHaveLength(50);
    expect((await c.pollLog(0, id)).some((e) => e.authorization === "absent")).toBe(false);
    expect(JSON.stringify(st)).not.toContain(TOKEN);
    expect(JSON.stringify(st)).not.toContain("nope");
  });
});

describe("preconfigured streams, a public URL with a path, closing with a poll held", () => {
  it("serves a profile's poll stream under the public URL's path and releases a held poll at close", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const t = await startTransmitter({
      port,
      publicUrl: `http://127.0.0.1:${port}/tx/`,
      streams: [{ delivery: "poll", streamId: "s1" }],
    });
    expect(t.publicUrl).toBe(`http://127.0.0.1:${port}/tx`);
    const d = await call(`${t.url}/.well-known/ssf-configuration/tx`, { token: null });
    expect(d.body.configuration_endpoint).toBe(`http://127.0.0.1:${port}/tx/ssf/stream`);
    expect(t.streams()).toEqual([
      expect.objectContaining({ streamId: "s1", createdBy: "profile", delivery: "poll" }),
    ]);
    // No receiver token configured: any Bearer token is accepted.
    const held = call(`${t.url}/tx/ssf/poll/s1`, { body: {}, token: "anything" }).catch((e: Error) => e);
    await t.control.wait("/tx/ssf/poll/s1", 1, 5000);
    await t.close();
    const r = await held;
    expect(r instanceof Error || r.status === 200).toBe(true);
  });
});

describe("idconform mock transmitter --emit", () => {
  it("makes a running mock sign and deliver the event, taking the control token from the environment", async () => {
    const t = await startTransmitter({ streams: [{ delivery: "poll", streamId: "cli" }] });
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((s) => {
      out.push(String(s));
      return true;
    });
    const errs = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      process.env.IDC_TEST_CONTROL = t.controlToken;
      const argv = ["--emit", "session-revoked", "--subject", "email:a@example.com", "--url", t.url];
      expect(await transmitterCommand([...argv, "--control-token", "${IDC_TEST_CONTROL}"])).toBe(0);
      const r = await call(`${t.url}/ssf/poll/cli`, { body: { returnImmediately: true } });
      expect(Object.values(r.body.sets as object)).toEqual([out[0]?.trim()]);
      expect(decodeJwt(out[0]!.trim()).sub_id).toEqual({ format: "email", email: "a@example.com" });
      await expect(transmitterCommand(argv)).rejects.toThrow(/--control-token/);
      await expect(transmitterCommand([...argv, "--control-token", "x", "--port", "1"])).rejects.toThrow(
        /--port serves/,
      );
      await expect(transmitterCommand([...argv, "--control-token", "wrong"])).rejects.toThrow(/403/);
    } finally {
      delete process.env.IDC_TEST_CONTROL;
      write.mockRestore();
      errs.mockRestore();
      await t.close();
    }
  });
});

describe("the set-up log survives a Receiver polling in a tight loop", () => {
  it("still lists discovery and stream creation after more polls than the shared log keeps", async () => {
    const t = await startTransmitter({ deliveryMethods: ["poll"] });
    try {
      const c = new TransmitterClient(t.url, t.controlToken);
      await call(`${t.url}/.well-known/ssf-configuration`, { token: null });
      const created = await call(`${t.url}/ssf/stream`, {
        body: { delivery: { method: "urn:ietf:rfc:8936" } },
      });
      const url = (created.body.delivery as { endpoint_url: string }).endpoint_url;
      for (let i = 0; i < 1010; i += 50)
        await Promise.all(Array.from({ length: 50 }, () => call(url, { body: { returnImmediately: true } })));
      expect(t.control.entries("/.well-known")).toEqual([]);
      const log = await c.log();
      expect(log.slice(0, 2).map((e) => e.path)).toEqual(["/.well-known/ssf-configuration", "/ssf/stream"]);
      expect(log.length).toBe(1002);
      expect((await c.log("/ssf/stream")).map((e) => e.method)).toEqual(["POST"]);
      expect(await c.log("/.well-known", log[0]!.seq)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe("pusher (bench)", () => {
  it("pushes SETs over keep-alive connections and counts the answers", async () => {
    const rx = await fakeReceiver();
    try {
      const r = await pushMany({ endpoint: rx.url, tokens: ["a.b.c", "d.e.f", "g.h.i"], concurrency: 2 });
      expect(r.count).toBe(3);
      expect(r.statuses).toEqual({ 202: 3 });
      expect(rx.pushes.map((p) => p.body).sort()).toEqual(["a.b.c", "d.e.f", "g.h.i"]);
    } finally {
      await rx.close();
    }
  });
});
