import { Readable } from "node:stream";
import fc from "fast-check";
import { Hono } from "hono";
import { CompactSign, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from "jose";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CAEP_EVENT_NAMES,
  SET_MEDIA_TYPE,
  SSF_VERIFICATION_EVENT,
  eventUri,
  type CaepEventName,
} from "../../src/protocols/caep.js";
import { serveApp } from "../../src/http/serve.js";
import { ReceiverClient } from "../../mocks/receiver/client.js";
import { receiverCommand } from "../../mocks/receiver/cli.js";
import { startReceiver, type MockReceiver } from "../../mocks/receiver/index.js";
import { PushPrinter, pushLine } from "../../mocks/receiver/printer.js";
import {
  MAX_PER_SLOT,
  MAX_STORED,
  MAX_STORED_BYTES,
  ReceiverState,
  sizeOf,
  type StoredSet,
} from "../../mocks/receiver/state.js";
import type { SetRule } from "../../mocks/receiver/types.js";
import {
  SSF_STREAM_UPDATED_EVENT,
  isSetTyp,
  judgeSet,
  type JudgeOptions,
} from "../../mocks/receiver/validator.js";

const ISSUER = "https://transmitter.example.com/tenant-1";
const AUD = "https://receiver.example.com/stream-a";
const NOW = Date.UTC(2025, 0, 1) / 1000;

let ecPrivate: CryptoKey;
let rsaPrivate: CryptoKey;
let strangerPrivate: CryptoKey;
let jwks: JSONWebKeySet;

beforeAll(async () => {
  const ec = await generateKeyPair("ES256", { extractable: true });
  const rsa = await generateKeyPair("RS256", { extractable: true });
  const stranger = await generateKeyPair("ES256", { extractable: true });
  ecPrivate = ec.privateKey;
  rsaPrivate = rsa.privateKey;
  strangerPrivate = stranger.privateKey;
  jwks = {
    keys: [
      { ...(await exportJWK(ec.publicKey)), kid: "ec-1", alg: "ES256", use: "sig" },
      { ...(await exportJWK(rsa.publicKey)), kid: "rsa-1" },
    ] as JWK[],
  };
});

/** A claim object each event type must accept (required claims present, values from the sets). */
const CLAIMS: Record<CaepEventName, Record<string, unknown>> = {
  "session-revoked": { event_timestamp: NOW, initiating_entity: "policy" },
  "token-claims-change": { claims: { role: "ro-admin" } },
  "credential-change": { credential_type: "fido2-roaming", change_type: "create", friendly_name: "key" },
  "assurance-level-change": {
    namespace: "NIST-AAL",
    current_level: "nist-aal2",
    previous_level: "nist-aal1",
    change_direction: "increase",
  },
  "device-compliance-change": { previous_status: "compliant", current_status: "not-compliant" },
  "session-established": { fp_ua: "abc", acr: "AAL2", amr: ["pwd", "otp"], ext_id: "12345" },
  "session-presented": { fp_ua: "abc", ext_id: "12345" },
  "risk-level-change": {
    risk_reason: "PASSWORD_FOUND_IN_DATA_BREACH",
    principal: "USER",
    current_level: "LOW",
    previous_level: "HIGH",
  },
};

let n = 0;
const claims = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  iss: ISSUER,
  aud: AUD,
  iat: NOW - 5,
  jti: `jti-${++n}`,
  txn: `txn-${n}`,
  sub_id: { format: "email", email: "alice@example.com" },
  events: { [eventUri("session-revoked")]: CLAIMS["session-revoked"] },
  ...over,
});
const without = (o: Record<string, unknown>, ...names: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !names.includes(k)));

async function sign(
  payload: Record<string, unknown>,
  o: { header?: Record<string, unknown>; key?: CryptoKey | Uint8Array } = {},
): Promise<string> {
  const header = { alg: "ES256", kid: "ec-1", typ: "secevent+jwt", ...o.header };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader(header as { alg: string })
    .sign(o.key ?? ecPrivate);
}

/** Options over the defaults; `audience: undefined` judges without the stream's aud. */
type Over = { [K in keyof JudgeOptions]?: JudgeOptions[K] | undefined };
const opts = (over: Over = {}): JudgeOptions => {
  const o: Record<string, unknown> = {
    issuer: ISSUER,
    keys: jwks,
    audience: AUD,
    seenJtis: new Map(),
    now: NOW * 1000,
    ...over,
  };
  if (o.audience === undefined) delete o.audience;
  return o as unknown as JudgeOptions;
};
const rules = async (token: unknown, o: Over = {}): Promise<SetRule[]> =>
  [...new Set((await judgeSet(token, opts(o))).problems.map((p) => p.rule))].sort();

describe("SET validator: a valid SET of every event type has no problem (SSF 1.0 §4.1, CAEP 1.0 §3)", () => {
  it.each(CAEP_EVENT_NAMES)("%s", async (name) => {
    const j = await judgeSet(await sign(claims({ events: { [eventUri(name)]: CLAIMS[name] } })), opts());
    expect(j.problems).toEqual([]);
    expect(j.verified).toBe(true);
    expect(j.repeated).toBe(false);
  });

  it("the SSF verification and stream-updated events, about the stream as an opaque subject", async () => {
    const sub_id = { format: "opaque", id: "stream-1" };
    for (const events of [
      { [SSF_VERIFICATION_EVENT]: { state: "abc" } },
      { [SSF_VERIFICATION_EVENT]: {} },
      { [SSF_STREAM_UPDATED_EVENT]: { status: "paused", reason: "maintenance" } },
    ])
      expect(await rules(await sign(claims({ sub_id, events })))).toEqual([]);
  });

  it("an RSA signature, an aud array of the stream's values, typ as a full media type in any case", async () => {
    const t = await sign(claims({ aud: [AUD] }), {
      header: { alg: "RS256", kid: "rsa-1", typ: "Application/SECEVENT+JWT" },
      key: rsaPrivate,
    });
    expect(await rules(t)).toEqual([]);
    expect(isSetTyp("secevent+jwt") && isSetTyp("application/secevent+jwt") && isSetTyp("SecEvent+JWT")).toBe(
      true,
    );
    expect(isSetTyp("jwt") || isSetTyp("application/jwt") || isSetTyp(undefined)).toBe(false);
  });

  it("a SET without kid verifies with the one key that fits its alg", async () => {
    expect(await rules(await sign(claims(), { header: { kid: undefined } }))).toEqual([]);
  });
});

describe("SET validator: each rule alone", () => {
  const only = async (rule: SetRule, token: string | Promise<string>, o: Over = {}) =>
    expect(await rules(await token, o)).toEqual([rule]);

  it('signature: alg "none", HS256, an unknown kid, an alg the key does not fit, a stranger key, a changed claim', async () => {
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    await only("signature", `${enc({ alg: "none", typ: "secevent+jwt" })}.${enc(claims())}.`);
    await only("signature", sign(claims(), { header: { alg: "HS256" }, key: new Uint8Array(32).fill(7) }));
    await only("signature", sign(claims(), { header: { kid: "nope" } }));
    await only("signature", sign(claims(), { header: { alg: "RS256", kid: "ec-1" }, key: rsaPrivate }));
    await only("signature", sign(claims(), { key: strangerPrivate }));
    await only("signature", sign(claims(), { header: { kid: undefined }, key: strangerPrivate }));
    const [h, , s] = (await sign(claims())).split(".");
    await only("signature", `${h}.${enc(claims())}.${s}`);
    const crit = { alg: "ES256", kid: "ec-1", typ: "secevent+jwt", crit: ["x-idc"], "x-idc": 1 };
    const j = await judgeSet(`${enc(crit)}.${enc(claims())}.${s}`, opts());
    expect(j.problems).toEqual([{ rule: "signature", message: expect.stringMatching(/crit/) }]);
    // A P-256 key with alg ES256 cannot verify a token that says ES384, though the kid matches.
    await only(
      "signature",
      `${enc({ alg: "ES384", kid: "ec-1", typ: "secevent+jwt" })}.${enc(claims())}.${s}`,
    );
  });

  it("signature: a key set of garbage keys is a problem, not a crash", async () => {
    const bad = {
      keys: [{ kty: "EC", crv: "P-256", kid: "ec-1", x: "AAAA", y: "!!" }],
    } as unknown as JSONWebKeySet;
    await only("signature", sign(claims()), { keys: bad });
    await only("signature", sign(claims()), { keys: { keys: "x" } as unknown as JSONWebKeySet });
  });

  it("signature: without keys nothing is verified and nothing is claimed", async () => {
    const j = await judgeSet(await sign(claims()), opts({ keys: null }));
    expect(j.problems).toEqual([]);
    expect(j.verified).toBe(false);
  });

  it("typ: missing or another type", async () => {
    await only("typ", sign(claims(), { header: { typ: undefined } }));
    await only("typ", sign(claims(), { header: { typ: "JWT" } }));
  });

  it("iss: missing, not a string, not the issuer (a trailing slash differs)", async () => {
    await only("iss", sign(without(claims(), "iss")));
    await only("iss", sign(claims({ iss: 7 })));
    await only("iss", sign(claims({ iss: `${ISSUER}/` })));
    expect(await rules(await sign(claims({ iss: "https://x.example" })), { issuer: null })).toEqual([]);
  });

  it("aud: another stream's, missing when the stream has one, of the wrong type", async () => {
    await only("aud", sign(claims({ aud: "https://receiver.example.com/stream-b" })));
    await only("aud", sign(claims({ aud: [AUD, "https://other.example"] })));
    await only("aud", sign(without(claims(), "aud")));
    await only("aud", sign(claims({ aud: 5 })), { audience: undefined });
    await only("aud", sign(claims({ aud: [] })), { audience: undefined });
    expect(await rules(await sign(without(claims(), "aud")), { audience: undefined })).toEqual([]);
  });

  it("iat: missing, not a number, in the future beyond the skew", async () => {
    await only("iat", sign(without(claims(), "iat")));
    await only("iat", sign(claims({ iat: "2025-01-01" })));
    await only("iat", sign(claims({ iat: NOW + 3600 })));
    expect(await rules(await sign(claims({ iat: NOW + 30 })))).toEqual([]);
    expect(await rules(await sign(claims({ iat: NOW - 86_400 })))).toEqual([]);
  });

  it("jti: missing or empty", async () => {
    await only("jti", sign(without(claims(), "jti")));
    await only("jti", sign(claims({ jti: "" })));
  });

  it("jti-unique: another SET with a used jti; the same SET again is a redelivery", async () => {
    for (const seenJtis of [new Map<string, string>(), new Set<string>()]) {
      const first = await sign(claims({ jti: "dup" }));
      expect(await rules(first, { seenJtis })).toEqual([]);
      const again = await judgeSet(first, opts({ seenJtis }));
      expect([again.problems, again.repeated]).toEqual([[], true]);
      // Re-signed (ECDSA differs each time) but the same claims: still the same SET.
      expect(
        (
          await judgeSet(
            await sign(
              JSON.parse(Buffer.from(first.split(".")[1]!, "base64url").toString()) as Record<
                string,
                unknown
              >,
            ),
            opts({ seenJtis }),
          )
        ).repeated,
      ).toBe(true);
      await only("jti-unique", sign(claims({ jti: "dup" })), { seenJtis });
    }
  });

  it("sub and exp: present", async () => {
    await only("sub", sign(claims({ sub: "alice" })));
    await only("exp", sign(claims({ exp: NOW + 600 })));
  });

  it("sub_id: missing, an unknown format, a member missing, a stream event about a user", async () => {
    await only("sub_id", sign(without(claims(), "sub_id")));
    await only("sub_id", sign(claims({ sub_id: { format: "username", username: "a" } })));
    await only("sub_id", sign(claims({ sub_id: { format: "iss_sub", iss: ISSUER } })));
    await only("sub_id", sign(claims({ events: { [SSF_VERIFICATION_EVENT]: { state: "s" } } })));
  });

  it("events: missing, empty, an unknown event type", async () => {
    await only("events", sign(without(claims(), "events")));
    await only("events", sign(claims({ events: {} })));
    await only("events", sign(claims({ events: [] })));
    await only(
      "events",
      sign(
        claims({ events: { "https://schemas.openid.net/secevent/risc/event-type/account-disabled": {} } }),
      ),
    );
  });

  it("event-claims: required claims missing, values outside closed sets, wrong types", async () => {
    const ev = (name: CaepEventName, c: Record<string, unknown>) =>
      claims({ events: { [eventUri(name)]: c } });
    await only(
      "event-claims",
      sign(ev("credential-change", without(CLAIMS["credential-change"], "change_type"))),
    );
    await only(
      "event-claims",
      sign(ev("risk-level-change", without(CLAIMS["risk-level-change"], "principal"))),
    );
    await only(
      "event-claims",
      sign(ev("risk-level-change", { ...CLAIMS["risk-level-change"], current_level: "low" })),
    );
    await only(
      "event-claims",
      sign(ev("device-compliance-change", { previous_status: "compliant", current_status: "ok" })),
    );
    await only("event-claims", sign(ev("token-claims-change", {})));
    await only("event-claims", sign(ev("session-revoked", { event_timestamp: "yesterday" })));
    // Milliseconds where CAEP 1.0 §2 has a NumericDate: far in the future.
    await only("event-claims", sign(ev("session-revoked", { event_timestamp: NOW * 1000 })));
    await only("event-claims", sign(ev("session-revoked", { initiating_entity: "robot" })));
    await only(
      "event-claims",
      sign(
        claims({
          sub_id: { format: "opaque", id: "s" },
          events: { [SSF_STREAM_UPDATED_EVENT]: { status: "on" } },
        }),
      ),
    );
    await only(
      "event-claims",
      sign(
        claims({ sub_id: { format: "opaque", id: "s" }, events: { [SSF_VERIFICATION_EVENT]: { state: 5 } } }),
      ),
    );
  });

  it("reason-maps: reason_admin as a string, an empty map, a key that is no language tag", async () => {
    const ev = (c: Record<string, unknown>) => claims({ events: { [eventUri("session-revoked")]: c } });
    await only("reason-maps", sign(ev({ reason_admin: "Policy violation" })));
    await only("reason-maps", sign(ev({ reason_user: {} })));
    await only("reason-maps", sign(ev({ reason_admin: { "not a tag": "x" } })));
    expect(await rules(await sign(ev({ reason_admin: { en: "Policy", "de-CH": "Richtlinie" } })))).toEqual(
      [],
    );
  });

  it("txn (SHOULD): missing or not a string", async () => {
    await only("txn", sign(without(claims(), "txn")));
    await only("txn", sign(claims({ txn: 8675309 })));
  });

  it("one-event (SHOULD): two events in one SET", async () => {
    await only(
      "one-event",
      sign(claims({ events: { [eventUri("session-revoked")]: {}, [eventUri("session-presented")]: {} } })),
    );
  });
});

describe("SET validator: garbage gives a malformed problem, never an exception", () => {
  it("non-strings, wrong part counts, a JWE, segments that are not JSON objects, a huge token", async () => {
    const enc = (v: unknown) =>
      Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
    for (const t of [
      undefined,
      null,
      42,
      {},
      "",
      "garbage",
      "a.b",
      "a.b.c.d.e",
      `${enc("{")}.${enc(claims())}.`,
      `${enc([1])}.${enc(claims())}.`,
      `${enc({ alg: "ES256" })}.${enc("null")}.`,
      `${enc({ alg: "ES256" })}.${enc(claims())}.!!`,
      `${enc({ alg: "ES256" })}.e30=.x`,
      "x".repeat(2 * 1024 * 1024),
    ])
      expect(await rules(t)).toEqual(["malformed"]);
  });

  it("a rule broken thousands of times gives a few messages and a count", async () => {
    const identifiers = Array.from({ length: 3000 }, () => ({ format: "email" }));
    const j = await judgeSet(await sign(claims({ sub_id: { format: "aliases", identifiers } })), opts());
    expect(j.problems.map((p) => p.rule)).toEqual(Array(6).fill("sub_id"));
    expect(j.problems[5]!.message).toBe("and 2995 more sub_id problems");
  });

  it("random strings and random JSON in every segment (fast-check, fixed seed)", async () => {
    const seg = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString("base64url")),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.tuple(seg, seg, seg).map((p) => p.join(".")),
        ),
        async (t) => {
          const j = await judgeSet(t, opts());
          expect(Array.isArray(j.problems)).toBe(true);
          expect(j.verified).toBe(false);
        },
      ),
      { seed: 1515, numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

async function push(
  url: string,
  body: string | Buffer | Readable,
  o: {
    authorization?: string;
    contentType?: string;
    method?: "POST" | "PUT" | "GET";
    dispatcher?: Agent;
  } = {},
) {
  const res = await request(url, {
    method: o.method ?? "POST",
    headers: {
      "content-type": o.contentType ?? SET_MEDIA_TYPE,
      ...(o.authorization !== undefined ? { authorization: o.authorization } : {}),
    },
    body: o.method === "GET" ? null : body,
    signal: AbortSignal.timeout(20_000),
    ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

const AUTHZ = "Bearer push-secret-7f3a9";

describe("mock Receiver push endpoint and control API (RFC 8935 §2)", () => {
  let r: MockReceiver;
  let client: ReceiverClient;
  beforeAll(async () => {
    r = await startReceiver();
    client = new ReceiverClient(r.url, r.controlToken);
  });
  afterAll(() => r.close());

  it("a slot answers 202 to a SET with its Authorization, records and judges it, and never shows the secret", async () => {
    const { slot, endpointUrl } = await client.createSlot({
      authorization: AUTHZ,
      judge: { issuer: ISSUER, jwks, audience: AUD },
    });
    expect(endpointUrl).toBe(`${r.url}/push/${slot}`);
    const token = await sign(claims({ jti: "slot-1" }));
    const res = await push(endpointUrl, token, { authorization: AUTHZ });
    expect([res.status, res.text]).toEqual([202, ""]);
    const [e] = await client.sets(slot);
    expect(e).toMatchObject({
      slot,
      method: "POST",
      token,
      jti: "slot-1",
      events: [eventUri("session-revoked")],
      status: 202,
      contentType: SET_MEDIA_TYPE,
      authorization: "present",
      problems: [],
      verified: true,
      header: { alg: "ES256", kid: "ec-1", typ: "secevent+jwt" },
      payload: { iss: ISSUER },
    });
    expect(e!.headers.authorization).toBe("present");
    const everything = JSON.stringify([await client.sets(slot), await client.slots(), await client.stats()]);
    expect(everything).not.toContain("push-secret");
    // The same SET again is a redelivery, not a reused jti.
    await push(endpointUrl, token, { authorization: AUTHZ });
    expect((await client.sets(slot, e!.seq))[0]!.problems).toEqual([]);
  });

  it("401 authentication_failed with a challenge for a missing or wrong Authorization; 405 for another method; both recorded", async () => {
    const { slot, endpointUrl } = await client.createSlot({ authorization: AUTHZ });
    const token = await sign(claims());
    const none = await push(endpointUrl, token);
    const wrong = await push(endpointUrl, token, { authorization: "Bearer guess" });
    const put = await push(endpointUrl, token, {
      authorization: AUTHZ,
      method: "PUT",
      contentType: "application/json",
    });
    expect([none.status, wrong.status, put.status]).toEqual([401, 401, 405]);
    expect(JSON.parse(none.text)).toMatchObject({ err: "authentication_failed" });
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer /);
    const log = await client.sets(slot);
    expect(log.map((e) => [e.status, e.authorization, e.method, e.contentType])).toEqual([
      [401, "absent", "POST", SET_MEDIA_TYPE],
      [401, "wrong", "POST", SET_MEDIA_TYPE],
      [405, "present", "PUT", "application/json"],
    ]);
    // Without a judge the claims are still judged; the signature is not.
    expect(log[0]).toMatchObject({ problems: [], verified: false, token });
    expect((await client.slotStats(slot)).answered).toEqual({ "401": 2, "405": 1 });
  });

  it("armed answers: 503 with Retry-After for the next two pushes, a 400 with err, a delay; then 202 again", async () => {
    const { slot, endpointUrl } = await client.createSlot();
    await client.respond(slot, { status: 503, retryAfter: 2, times: 2 });
    await client.respond(slot, { status: 400, err: "invalid_key", description: "unknown kid" });
    await client.respond(slot, { delayMs: 20 });
    expect((await client.slotStats(slot)).armed).toBe(3);
    const token = await sign(claims());
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await push(endpointUrl, token));
    expect(got.map((g) => g.status)).toEqual([503, 503, 400, 202, 202]);
    expect(got[0]!.headers["retry-after"]).toBe("2");
    expect(JSON.parse(got[2]!.text)).toEqual({ err: "invalid_key", description: "unknown kid" });
    const log = await client.sets(slot);
    expect(log.map((e) => e.armed ?? null)).toEqual([
      { status: 503, retryAfter: 2, times: 2 },
      { status: 503, retryAfter: 2, times: 2 },
      { status: 400, err: "invalid_key", description: "unknown kid" },
      { delayMs: 20 },
      null,
    ]);
    await client.respond(slot, { status: 429, retryAfter: 1, times: 5 });
    await client.disarm(slot);
    expect((await push(endpointUrl, token)).status).toBe(202);
    await expect(client.respond(slot, { retryAfter: 3 })).rejects.toThrow(/400: give status/);
    await expect(client.respond(slot, { status: 503, times: 0 })).rejects.toThrow(/times/);
  });

  it("wait resolves when the count arrived after since, or at the timeout with what there is", async () => {
    const { slot, endpointUrl } = await client.createSlot();
    const token = await sign(claims());
    await push(endpointUrl, token);
    const [first] = await client.sets(slot);
    const waiting = client.wait(slot, 2, 10_000, first!.seq);
    await push(endpointUrl, token);
    await push(endpointUrl, token);
    expect((await waiting).length).toBe(2);
    expect(await client.wait(slot, 5, 50, Number.MAX_SAFE_INTEGER - 1)).toEqual([]);
  });

  it("unknown slots answer 404 and are counted; deleted slots are gone; control needs the token", async () => {
    const before = (await client.stats()).unknownSlot;
    expect((await push(`${r.url}/push/nope`, "x")).status).toBe(404);
    const { slot, endpointUrl } = await client.createSlot();
    expect(await client.deleteSlot(slot)).toBe(true);
    expect(await client.deleteSlot(slot)).toBe(false);
    expect((await push(endpointUrl, "x")).status).toBe(404);
    expect((await client.stats()).unknownSlot).toBe(before + 2);
    await expect(new ReceiverClient(r.url, "wrong").stats()).rejects.toThrow(/403/);
    await expect(client.sets("nope")).rejects.toThrow(/404: no such slot/);
    await expect(
      client.createSlot({ judge: { issuer: ISSUER, jwks: { keys: [{ kty: "oct", k: "AAAA" }] } } }),
    ).rejects.toThrow(/private or symmetric/);
  });
});

describe("mock Receiver under a flood: bodies capped, the log bounded, counters exact", () => {
  let r: MockReceiver;
  let client: ReceiverClient;
  const agent = new Agent({ connections: 32 });
  beforeAll(async () => {
    r = await startReceiver();
    client = new ReceiverClient(r.url, r.controlToken);
  });
  afterAll(async () => {
    await agent.close();
    await r.close();
  });

  it("5,000 SETs and 1 MB bodies: every push counted and judged, 1000 kept, over-cap answered 413 and not stored", async () => {
    const { slot, endpointUrl } = await client.createSlot({ judge: { issuer: ISSUER, jwks, audience: AUD } });
    const TOTAL = 5000;
    const big = Buffer.alloc(1024 * 1024, "a");
    let next = 0;
    const statuses: Record<number, number> = {};
    const worker = async (): Promise<void> => {
      while (next < TOTAL) {
        const i = next++;
        const res = await push(endpointUrl, await sign(claims({ jti: `flood-${i}` })), { dispatcher: agent });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const over = [
      await push(endpointUrl, big, { dispatcher: agent }),
      await push(endpointUrl, big, { dispatcher: agent }),
      // No Content-Length: the cap is found while reading.
      await push(endpointUrl, Readable.from([big.subarray(0, 512 * 1024), big.subarray(512 * 1024)]), {
        dispatcher: agent,
      }),
    ];
    expect(statuses).toEqual({ 202: TOTAL });
    expect(over.map((o) => o.status)).toEqual([413, 413, 413]);

    const st = await client.slotStats(slot);
    expect(st.flood).toEqual({ count: TOTAL + 3, bytes: expect.any(Number), overCap: 3 });
    expect(st.flood.bytes).toBeGreaterThanOrEqual(3 * big.length);
    expect(st).toMatchObject({
      stored: MAX_PER_SLOT,
      evicted: TOTAL - MAX_PER_SLOT,
      judged: TOTAL,
      withProblems: 0,
      answered: { "202": TOTAL, "413": 3 },
    });
    const log = await client.sets(slot);
    expect(log.length).toBe(MAX_PER_SLOT);
    expect(new Set(log.map((e) => e.jti)).size).toBe(MAX_PER_SLOT);
    expect(log.every((e) => e.token.length < 2048)).toBe(true);
    expect(r.bytesStored).toBeLessThan(MAX_PER_SLOT * 2048);
    const all = await client.stats();
    expect(all.flood.overCap).toBe(3);
    expect(all.stored).toBe(MAX_PER_SLOT);
  });
});

describe("the log's bounds across slots (5000 entries, 32 MiB)", () => {
  const entry = (seq: number, slot: string, bytes: number): StoredSet => ({
    seq,
    at: "",
    slot,
    method: "POST",
    token: "x".repeat(bytes),
    status: 202,
    headers: {},
    authorization: "absent",
  });
  const judge = { issuer: null, keys: () => Promise.resolve(null) };

  it("drops the oldest entries of any slot past 5000 in all", () => {
    const s = new ReceiverState(() => "http://127.0.0.1");
    const slots = Array.from({ length: 6 }, (_, i) => s.addSlot({ id: `s${i}`, judge })!);
    let seq = 0;
    for (const slot of slots) for (let i = 0; i < MAX_PER_SLOT; i++) s.store(slot, entry(++seq, slot.id, 10));
    const st = s.stats();
    expect(st.stored).toBe(MAX_STORED);
    expect(st.slots.map((x) => [x.stored, x.evicted])).toEqual([
      [0, 1000],
      [1000, 0],
      [1000, 0],
      [1000, 0],
      [1000, 0],
      [1000, 0],
    ]);
    expect(s.deleteSlot("s1")).toBe(true);
    expect(s.stats().stored).toBe(MAX_STORED - MAX_PER_SLOT);
  });

  it("drops the oldest entries past 32 MiB of bodies", () => {
    const s = new ReceiverState(() => "http://127.0.0.1");
    const slots = Array.from({ length: 3 }, (_, i) => s.addSlot({ id: `s${i}`, judge })!);
    let seq = 0;
    for (let i = 0; i < 700; i++) s.store(slots[i % 3]!, entry(++seq, slots[i % 3]!.id, 64 * 1024));
    expect(s.bytesStored).toBeLessThanOrEqual(MAX_STORED_BYTES);
    expect(s.stats().stored).toBe(Math.floor(MAX_STORED_BYTES / sizeOf(entry(0, "x", 64 * 1024))));
  });
});

describe("idconform mock receiver: one line per SET, bounded under floods", () => {
  const notice = (jti: string, problems: { rule: SetRule; message: string }[] = []) => ({
    slot: "default",
    status: 202,
    bytes: 100,
    overCap: false,
    set: {
      ...({} as StoredSet),
      jti,
      events: [eventUri("credential-change")],
      problems,
      verified: true,
      status: 202,
      authorization: "present" as const,
    },
  });

  it("prints jti, event type and verdict, stripped of control characters", () => {
    expect(pushLine(notice("j-1"))).toMatch(/ 202 jti=j-1 credential-change: valid$/);
    const line = pushLine(
      notice("evil\n\u001b[31mred", [
        { rule: "event-claims", message: "events[x].change_type is missing (REQUIRED)" },
      ]),
    );
    expect(line).not.toMatch(/[\n\u001b]/);
    expect(line).toMatch(/1 problem: event-claims: events\[x\]\.change_type is missing/);
    expect(pushLine({ slot: "d", status: 413, bytes: 2_000_000, overCap: true })).toMatch(
      /413 body over the 64 KiB cap \(2000000 bytes read, not stored\)/,
    );
  });

  it("beyond the rate, one summary line per second", () => {
    const out: string[] = [];
    const p = new PushPrinter((l) => out.push(l), 3);
    for (let i = 0; i < 10; i++)
      p.push(notice(`j-${i}`, i % 2 ? [{ rule: "txn", message: "txn is missing" }] : []));
    p.push({ slot: "d", status: 413, bytes: 1, overCap: true });
    expect(out.length).toBe(3);
    p.tick();
    expect(out[3]).toBe(
      "... 8 more pushes in the last second: 3 valid, 4 with problems, 1 over the body cap, 0 refused",
    );
    p.tick();
    expect(out.length).toBe(4);
    p.push(notice("again"));
    expect(out.length).toBe(5);
  });

  it("serves the push endpoint, judges against --issuer's jwks_uri keys, and never prints the Authorization", async () => {
    // A Transmitter's discovery and keys on loopback, as --issuer finds them.
    const app = new Hono();
    const tx = await serveApp(app);
    const issuer = `${tx.url}/t1`;
    app.get("/.well-known/ssf-configuration/t1", (c) => c.json({ issuer, jwks_uri: `${tx.url}/jwks` }));
    app.get("/jwks", (c) => c.json(jwks));
    const out: string[] = [];
    let listening!: () => void;
    const ready = new Promise<void>((res) => (listening = res));
    let stop!: () => void;
    const until = new Promise<void>((res) => (stop = res));
    process.env.IDC_TEST_PUSH_AUTH = AUTHZ;
    try {
      const done = receiverCommand(["--issuer", issuer, "--authorization", "${IDC_TEST_PUSH_AUTH}"], {
        out: (s) => {
          out.push(s);
          if (s.startsWith("mock receiver listening")) listening();
        },
        until,
      });
      await ready;
      const endpoint = /push endpoint .*: (\S+)/.exec(out.join(""))![1]!;
      expect(endpoint).toMatch(/\/push\/default$/);
      const ok = await push(endpoint, await sign(claims({ iss: issuer, jti: "cli-ok" })), {
        authorization: AUTHZ,
      });
      const bad = await push(endpoint, await sign(claims({ iss: issuer, jti: "cli-bad", exp: NOW })), {
        authorization: AUTHZ,
      });
      const noAuth = await push(endpoint, await sign(claims({ iss: issuer, jti: "cli-noauth" })));
      expect([ok.status, bad.status, noAuth.status]).toEqual([202, 202, 401]);
      stop();
      expect(await done).toBe(0);
      const text = out.join("");
      expect(text).toMatch(/202 jti=cli-ok session-revoked: valid\n/);
      expect(text).toMatch(/202 jti=cli-bad session-revoked: 1 problem: exp: /);
      expect(text).toMatch(/401 jti=cli-noauth session-revoked authorization absent: valid\n/);
      expect(text).not.toContain("push-secret");
    } finally {
      delete process.env.IDC_TEST_PUSH_AUTH;
      await tx.close();
    }
  });

  it("refuses bad options with the usage", async () => {
    await expect(receiverCommand(["--issuer", "not a url"])).rejects.toThrow(
      /--issuer: expected an absolute/,
    );
    await expect(receiverCommand(["--authorization", "${IDC_TEST_UNSET_VAR}"])).rejects.toThrow(/not set/);
    await expect(receiverCommand(["stray"])).rejects.toThrow(/unexpected argument/);
  });
});
