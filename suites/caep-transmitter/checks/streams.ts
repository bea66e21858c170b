import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { CAEP_EVENT_URIS, methodUrn, StreamClient, type CallOptions, type Stream } from "../client.js";
import { addStream, streams } from "../ledger.js";
import type { CaepTransmitterProfile, DeliveryMethod } from "../profile.js";
import {
  body,
  isObject,
  listedIds,
  methodsOf,
  readBack,
  said,
  sameSet,
  strings,
  type Ctx,
  refusedWith400,
} from "./stream-util.js";

/** An event type URI no Transmitter supports (idconform's own namespace). */
const UNKNOWN_EVENT = "https://schemas.idconform.example/secevent/event-type/unknown-to-every-transmitter";

/**
 * Judges one create answer (SSF §8.1.1, §8.1.1.1, §6.1): 201, and the configuration the
 * Receiver must be able to rely on. Returns the stream it describes, if any.
 */
function judgeCreated(
  c: Ctx,
  k: StreamClient,
  res: HttpResponse,
  req: Record<string, unknown>,
  m: DeliveryMethod,
  slot: string | undefined,
  authorization: string | undefined,
): Stream | undefined {
  const R = "CAEPT-STREAM-CREATE";
  c.check(R, res.status === 201, {
    message: `creating a ${m} stream is not answered 201 Created`,
    expected: "201 with the stream's configuration",
    actual: said(res),
    res,
    kind: "wrong-status",
  });
  if (res.status < 200 || res.status > 299) return undefined;
  if (!isObject(res.json)) {
    c.check(R, false, {
      expected: "a JSON object: the stream's configuration",
      actual: res.jsonError !== undefined ? `not JSON: ${res.jsonError}` : quote(res.json, 120),
      res,
      kind: "malformed",
    });
    return undefined;
  }
  const b = res.json;
  const member = (ok: boolean, name: string, expected: string): void =>
    void c.check(R, ok, {
      message: `the ${m} stream's configuration: ${name} ${b[name] === undefined ? "is missing" : "is wrong"}`,
      expected,
      actual: `${name} ${quote(b[name], 160)}`,
      res,
      kind: b[name] === undefined ? "missing" : "wrong-value",
    });
  member(typeof b.stream_id === "string" && b.stream_id !== "", "stream_id", "stream_id: a non-empty string");
  member(b.iss === k.issuer, "iss", `iss ${quote(k.issuer)} (the discovery issuer)`);
  const auds = typeof b.aud === "string" ? [b.aud] : strings(b.aud);
  member(auds !== undefined && auds.length > 0, "aud", "aud: a string or a non-empty array of strings");
  const want = k.c.profile.audience;
  if (want !== undefined && auds !== undefined)
    member(auds.includes(want), "aud", `aud with ${quote(want)} (the profile's audience)`);
  member(
    strings(b.events_delivered) !== undefined,
    "events_delivered",
    "events_delivered: an array of event type URIs",
  );
  // The unknown URI may be kept or dropped: the Transmitter ignores it either way.
  const sentEvents = strings(req.events_requested) ?? [];
  const returned = strings(b.events_requested);
  member(
    sameSet(returned, sentEvents) ||
      sameSet(
        returned,
        sentEvents.filter((e) => e !== UNKNOWN_EVENT),
      ),
    "events_requested",
    `events_requested as sent (${sentEvents.length} URIs${sentEvents.includes(UNKNOWN_EVENT) ? ", the unknown one may be left out" : ""})`,
  );
  const d = isObject(b.delivery) ? b.delivery : undefined;
  const sent = isObject(req.delivery) ? req.delivery : {};
  member(d?.method === methodUrn(m), "delivery", `delivery.method ${methodUrn(m)}`);
  if (m === "push")
    member(
      d?.endpoint_url === sent.endpoint_url,
      "delivery",
      "delivery.endpoint_url: the endpoint_url the Receiver gave",
    );
  else {
    const u = d?.endpoint_url;
    member(
      typeof u === "string" && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
      "delivery",
      "delivery.endpoint_url: the absolute URL the Transmitter serves this stream's SETs at",
    );
  }
  return k.streamOf(res, m, slot, authorization);
}

export const streamChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-create",
    title:
      "creating a stream is answered 201 with its configuration: a fresh stream_id, iss, aud, events_delivered, events_requested as sent, delivery of the method asked for; with delivery alone too (SSF 1.0 §8.1.1, §8.1.1.1)",
    requirements: ["CAEPT-STREAM-CREATE"],
    async run(c) {
      const k = new StreamClient(c);
      const made: string[] = [];
      try {
        for (const m of await methodsOf(c, k)) {
          const streams: Stream[] = [];
          // Two of each method: each gets its own stream_id, and each poll stream its own URL.
          for (const n of [1, 2]) {
            // The first asks for an event type no Transmitter supports besides the eight: it
            // "MUST ignore" it, so it must not be among events_delivered (the observer's rule).
            const {
              body: req,
              slot,
              authorization,
            } = await k.createBody(m, {
              label: `create ${m} stream ${n}`,
              ...(n === 1 ? { events: [...CAEP_EVENT_URIS, UNKNOWN_EVENT] } : {}),
            });
            const res = await k.create(req, { label: `create ${m} stream ${n}` });
            const id = body(res).stream_id;
            if (typeof id === "string") made.push(id);
            const s = judgeCreated(c, k, res, req, m, slot, authorization);
            if (s) streams.push(s);
          }
          const [a, b] = streams;
          if (a && b) {
            c.check("CAEPT-STREAM-CREATE", a.id !== b.id, {
              message: `two ${m} streams got the same stream_id`,
              expected: "a stream_id unique among the Transmitter's streams",
              actual: `both ${quote(a.id)}`,
            });
            if (m === "poll")
              c.check("CAEPT-STREAM-CREATE", a.endpointUrl !== b.endpointUrl, {
                message: "two poll streams of one Receiver got the same delivery.endpoint_url",
                expected: "a poll endpoint_url unique per stream for a given Receiver (SSF §6.1.2)",
                actual: `both ${quote(a.endpointUrl ?? null)}`,
              });
          }
        }
        // events_requested and description are OPTIONAL (SSF 1.0 §8.1.1): a request with the
        // delivery alone is as valid. (No description: the run's ledger names it for the sweep.)
        const [m] = await methodsOf(c, k);
        const { body: full } = await k.createBody(m, { label: `create ${m} stream (delivery alone)` });
        const bare = await k.create(
          { delivery: full.delivery },
          { label: `create ${m} stream with delivery alone` },
        );
        const bareId = body(bare).stream_id;
        if (typeof bareId === "string") made.push(bareId);
        c.check("CAEPT-STREAM-CREATE", bare.status === 201 && typeof bareId === "string" && bareId !== "", {
          message: `creating a ${m} stream with delivery alone (events_requested and description are OPTIONAL) is not answered 201 with a stream_id`,
          expected: "201 with the stream's configuration and a stream_id",
          actual: said(bare),
          res: bare,
          kind: bare.status === 201 ? "missing" : "wrong-status",
        });
      } finally {
        for (const id of made) await k.close(id);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-create-invalid",
    title:
      "a stream creation request whose body is not valid (not JSON, not an object, a bad delivery, events_requested or description) is refused with 400 and creates no stream (SSF 1.0 §8.1.1.1)",
    requirements: ["CAEPT-STREAM-CREATE-INVALID"],
    async run(c) {
      const R = "CAEPT-STREAM-CREATE-INVALID";
      const k = new StreamClient(c);
      const methods = await methodsOf(c, k);
      const probes = await invalidCreates(k, methods);
      if (!methods.includes("push"))
        c.note(
          "push is not tested: the authorization_header probe (it needs a push endpoint_url) is not sent",
        );
      const made = new Set<string>();
      try {
        const first = await k.list({ label: "list streams before the invalid requests" });
        const listed = listedIds(first);
        let seen = listed === undefined ? undefined : new Set(listed);
        if (listed === undefined)
          c.partly(
            R,
            `the Receiver's streams could not be listed (answered ${said(first)}; see CAEPT-STREAM-LIST): a stream made from a refused request is seen only when its answer names it`,
          );
        await c.each(R, probes, "invalid create requests", async (p) => {
          const res = await p.send({ label: `create stream with ${p.what}`, tags: ["attack"] });
          const ok = res.status >= 200 && res.status < 300;
          const named = ok ? body(res).stream_id : undefined;
          const id = typeof named === "string" && named !== "" ? named : undefined;
          if (id !== undefined) {
            made.add(id);
            if (p.raw)
              await addStream(k.provided.runDir, { streamId: id, receiver: k.receiver, check: p.what });
          }
          const created: string[] = [];
          if (id !== undefined) {
            const back = await k.read(id, { label: `read back the stream made from ${p.what}` });
            if (back.status === 200) created.push(id);
          }
          // A stream stored though the answer names none: new in the list, and no other check of
          // the run (they run beside this one) noted it.
          const list = await k.list({ label: `list streams after ${p.what}` });
          const now = listedIds(list);
          const before = seen;
          seen = now === undefined ? undefined : new Set(now);
          if (now === undefined)
            c.partly(
              R,
              `the Receiver's streams could not be listed after ${p.what} (answered ${said(list)}; see CAEPT-STREAM-LIST): a stream made from a refused request is seen only when its answer names it`,
            );
          const fresh = before === undefined ? [] : (now ?? []).filter((n) => !before.has(n) && n !== id);
          for (const x of await unexplained(k, fresh)) {
            created.push(x.id);
            // Only what carries this run's mark is deleted: the run never touches others' streams.
            if (x.config.includes(c.runId)) made.add(x.id);
            else
              c.note(
                `stream ${quote(x.id)} appeared after ${p.what} without this run's id in its configuration: left for the operator to delete`,
              );
          }
          if (created.length > 0)
            return {
              message: `${p.what} is not refused: the Transmitter made a stream of it`,
              expected: "400, and no new stream",
              actual: `${said(res)}; stream ${quote(created, 200)} then exists`,
              res,
              kind: "accepted",
            };
          return refusedWith400(
            p.what,
            res,
            "SSF §8.1.1.1's Create Stream Errors give a request that cannot be parsed",
          );
        });
      } finally {
        for (const id of made) await k.close(id);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-read-list",
    title:
      "a stream is read back by stream_id (200, its configuration) and the list without stream_id holds every stream of the Receiver (SSF 1.0 §8.1.1.2)",
    requirements: ["CAEPT-STREAM-READ", "CAEPT-STREAM-LIST"],
    async run(c) {
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const made: Stream[] = [];
      try {
        for (const n of [1, 2]) made.push(await k.open(m, { label: `create stream ${n}` }));
        for (const s of made) {
          const res = await k.read(s.id);
          const b = body(res);
          c.check("CAEPT-STREAM-READ", res.status === 200 && isObject(res.json), {
            expected: "200 with the stream's configuration (a JSON object)",
            actual: said(res),
            res,
            kind: res.status === 200 ? "malformed" : "wrong-status",
          });
          for (const name of ["stream_id", "iss", "aud"] as const)
            if (res.status === 200)
              c.check("CAEPT-STREAM-READ", JSON.stringify(b[name]) === JSON.stringify(s.config[name]), {
                message: `the configuration read back has another ${name} than its creation returned`,
                expected: `${name} ${quote(s.config[name], 120)}`,
                actual: `${name} ${quote(b[name], 120)}`,
                res,
                kind: b[name] === undefined ? "missing" : "wrong-value",
              });
        }
        const list = await k.list();
        const ids = listedIds(list);
        c.check("CAEPT-STREAM-LIST", ids !== undefined, {
          expected: "200 with a JSON array of the Receiver's stream configurations",
          actual: said(list),
          res: list,
          kind: list.status === 200 ? "malformed" : "wrong-status",
        });
        if (ids !== undefined)
          for (const s of made)
            c.check("CAEPT-STREAM-LIST", ids.includes(s.id), {
              message: "a stream the Receiver created is not in its list",
              expected: `a configuration with stream_id ${quote(s.id)}`,
              actual: `stream_ids ${quote(ids, 300)}`,
              res: list,
              kind: "missing",
            });
      } finally {
        for (const s of made) await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-update",
    title:
      "PATCH changes the Receiver-Supplied properties it names (200 with the whole configuration) and leaves the others; a read shows it (SSF 1.0 §8.1.1.3)",
    requirements: ["CAEPT-STREAM-UPDATE"],
    async run(c) {
      const R = "CAEPT-STREAM-UPDATE";
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream" });
      try {
        const events = CAEP_EVENT_URIS.slice(0, 3);
        const description = k.description("updated by PATCH");
        const res = await k.update(s.id, { description, events_requested: events });
        c.check(R, res.status === 200 || res.status === 202, {
          expected: "200 with the updated configuration (or 202: accepted, not yet processed)",
          actual: said(res),
          res,
          kind: "wrong-status",
        });
        if (res.status === 200) {
          const b = body(res);
          c.check(R, b.description === description && sameSet(strings(b.events_requested), events), {
            message: "the PATCH answer does not show the change",
            expected: `the whole configuration with description ${quote(description)} and the 3 events_requested sent`,
            actual: `description ${quote(b.description)}, events_requested ${quote(b.events_requested, 300)}`,
            res,
          });
        }
        const changed = (b: Record<string, unknown>): boolean =>
          b.description === description && sameSet(strings(b.events_requested), events);
        const back = await readBack(k, s.id, changed, res.status === 202);
        const b = body(back);
        c.check(R, back.status === 200 && changed(b), {
          message: "a read after the PATCH does not show the change",
          expected: `description ${quote(description)}, events_requested the 3 URIs sent`,
          actual:
            back.status === 200
              ? `description ${quote(b.description)}, events_requested ${quote(b.events_requested, 300)}`
              : said(back),
          res: back,
        });
        const before = isObject(s.config.delivery) ? s.config.delivery : {};
        const after = isObject(b.delivery) ? b.delivery : {};
        c.check(R, before.method === after.method && before.endpoint_url === after.endpoint_url, {
          message: "a property the PATCH left out (delivery) changed",
          expected: `delivery ${quote({ method: before.method, endpoint_url: before.endpoint_url }, 200)}`,
          actual: `delivery ${quote({ method: after.method, endpoint_url: after.endpoint_url }, 200)}`,
          res: back,
        });
        if (res.status !== 200 && res.status !== 202) return;
        // A second PATCH names description alone: events_requested stays as the first set it.
        const again = k.description("updated again by PATCH");
        const res2 = await k.update(
          s.id,
          { description: again },
          { label: "update stream (description only)" },
        );
        const kept = (x: Record<string, unknown>): boolean =>
          x.description === again && sameSet(strings(x.events_requested), events);
        const back2 = await readBack(k, s.id, kept, res2.status === 202);
        const b2 = body(back2);
        c.check(R, back2.status === 200 && kept(b2), {
          message:
            back2.status === 200 && b2.description === again
              ? "a property the PATCH left out (events_requested) changed"
              : "a read after a PATCH of description alone does not show it",
          expected: `description ${quote(again)}, events_requested still the 3 URIs the first PATCH set`,
          actual:
            back2.status === 200
              ? `description ${quote(b2.description)}, events_requested ${quote(b2.events_requested, 300)}`
              : said(back2),
          res: back2,
        });
      } finally {
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-replace",
    title:
      "PUT replaces the Receiver-Supplied properties: the new values are read back and a property left out (description) is deleted (SSF 1.0 §8.1.1.4)",
    requirements: ["CAEPT-STREAM-REPLACE"],
    async run(c) {
      const R = "CAEPT-STREAM-REPLACE";
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream (with a description)" });
      try {
        const events = CAEP_EVENT_URIS.slice(2, 6);
        const delivery = isObject(s.config.delivery) ? s.config.delivery : {};
        // The full Receiver-Supplied set, description left out: it must be deleted.
        const full: Record<string, unknown> = {
          delivery:
            m === "push"
              ? { method: delivery.method, endpoint_url: delivery.endpoint_url, ...authorizationOf(s) }
              : { method: methodUrn(m) },
          events_requested: events,
        };
        const res = await k.replace(s.id, full);
        c.check(R, res.status === 200 || res.status === 202, {
          expected: "200 with the replaced configuration (or 202: accepted, not yet processed)",
          actual: said(res),
          res,
          kind: "wrong-status",
        });
        const replaced = (b: Record<string, unknown>): boolean =>
          b.description === undefined && sameSet(strings(b.events_requested), events);
        const back = await readBack(k, s.id, replaced, res.status === 202);
        const b = body(back);
        c.check(R, back.status === 200 && sameSet(strings(b.events_requested), events), {
          message: "a read after the PUT does not show the new events_requested",
          expected: `events_requested the ${events.length} URIs sent`,
          actual: back.status === 200 ? `events_requested ${quote(b.events_requested, 300)}` : said(back),
          res: back,
        });
        if (back.status === 200)
          c.check(R, b.description === undefined, {
            message:
              "the description the PUT left out is still there: a missing Receiver-Supplied property means delete it",
            expected: "no description",
            actual: `description ${quote(b.description)}`,
            res: back,
          });
      } finally {
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-change-invalid",
    title:
      "an update (PATCH) or replacement (PUT) of the Receiver's stream whose body is not valid (not JSON, not an object, a bad delivery, events_requested or description, a Transmitter-Supplied property not the Transmitter's) is refused with 400 and the configuration read back is unchanged (SSF 1.0 §8.1.1.3, §8.1.1.4)",
    requirements: ["CAEPT-STREAM-CHANGE-INVALID"],
    async run(c) {
      const R = "CAEPT-STREAM-CHANGE-INVALID";
      const k = new StreamClient(c);
      const methods = await methodsOf(c, k);
      const [m] = methods;
      const s = await k.open(m, { label: "create stream (the Receiver's own)" });
      try {
        const first = await k.read(s.id, { label: "read stream (before the invalid changes)" });
        let was = first.status === 200 && isObject(first.json) ? watched(first.json) : watched(s.config);
        if (first.status !== 200)
          c.partly(
            R,
            `the stream could not be read (answered ${said(first)}; see CAEPT-STREAM-READ): a change made by a refused request is seen only in its answer`,
          );
        const probes = invalidChanges(k, s, m, methods.includes("push"));
        await c.each(R, probes, "invalid update and replace requests", async (p) => {
          const res = await p.send({ label: p.what, tags: ["attack"] });
          const back = await k.read(s.id, { label: `read stream (after ${p.what})` });
          if (back.status === 200 && isObject(back.json)) {
            const read = back.json;
            const now = watched(read);
            const changed = Object.keys(now).filter((n) => now[n] !== was[n]);
            // The next request is judged against the stream as it now is.
            was = now;
            if (changed.length > 0)
              return {
                message: `${p.what} is not refused: the stream's configuration changed`,
                expected: "400, and the configuration as it was",
                actual: `${said(res)}; then ${quote(Object.fromEntries(changed.map((n) => [n, read[n]])), 300)}`,
                res: back,
                kind: "accepted",
              };
          } else
            c.partly(
              R,
              `the stream could not be read after ${p.what} (answered ${said(back)}; see CAEPT-STREAM-READ)`,
            );
          return refusedWith400(
            p.what,
            res,
            "SSF §8.1.1.3 and §8.1.1.4 give a body that cannot be parsed, a Transmitter-Supplied property that is incorrect or a request otherwise invalid",
          );
        });
      } finally {
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-delete",
    title:
      "DELETE is answered 204 with no body, after which the stream reads 404 and is not listed (SSF 1.0 §8.1.1.5)",
    requirements: ["CAEPT-STREAM-DELETE"],
    async run(c) {
      const R = "CAEPT-STREAM-DELETE";
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream" });
      let gone = false;
      try {
        const res = await k.remove(s.id);
        gone = res.status === 204;
        c.check(R, res.status === 204 && res.text === "", {
          expected: "204 No Content with no body",
          actual: said(res),
          res,
          kind: res.status === 204 ? "wrong-value" : "wrong-status",
        });
        if (res.status < 200 || res.status > 299) return;
        const read = await k.read(s.id, { label: "read the deleted stream" });
        c.check(R, read.status === 404, {
          message: "the deleted stream can still be read",
          expected: "404: no stream with this stream_id for this Receiver",
          actual: said(read),
          res: read,
          kind: "wrong-status",
        });
        const list = await k.list();
        const ids = listedIds(list);
        c.check(R, ids !== undefined && !ids.includes(s.id), {
          message:
            ids === undefined
              ? "the list after the delete could not be read"
              : "the deleted stream is still listed",
          expected: `a list without stream_id ${quote(s.id)}`,
          actual: ids === undefined ? said(list) : `stream_ids ${quote(ids, 300)}`,
          res: list,
        });
        gone = read.status === 404;
      } finally {
        if (!gone) await k.close(s);
      }
    },
  }),
];

/**
 * How long, at least, a stream new in the list may take to show up in the run's ledger (another
 * check noting it); the profile's eventTimeoutMs when longer.
 */
const LEDGER_GRACE_MS = 2_000;

/** One create request with an invalid body: what is wrong with it, and how it is sent. */
interface InvalidCreate {
  readonly what: string;
  /** Sent without StreamClient.create (not a JSON object): a stream it makes is noted here. */
  readonly raw?: true;
  readonly send: (o: CallOptions) => Promise<HttpResponse>;
}

/**
 * The invalid create requests (SSF 1.0 §8.1.1.1, §8.1.1, §6.1.1): each is a valid body of the
 * first tested method with one thing wrong. No endpoint_url names a host outside this machine: a
 * push endpoint wrongly accepted would be sent SETs (the authorization_header probe uses a mock
 * Receiver slot, the unknown method a loopback URL).
 */
async function invalidCreates(k: StreamClient, methods: readonly DeliveryMethod[]): Promise<InvalidCreate[]> {
  const [m = "poll"] = methods;
  const { body: base } = await k.createBody(m, { label: "invalid create" });
  const object = (what: string, changes: Record<string, unknown>): InvalidCreate => ({
    what,
    send: (o) => k.create({ ...base, ...changes }, o),
  });
  const push = (what: string, delivery: Record<string, unknown>): InvalidCreate =>
    object(what, { delivery: { method: methodUrn("push"), ...delivery } });
  const probes: InvalidCreate[] = [
    {
      what: "a body that is not JSON",
      raw: true,
      send: async (o) =>
        k.c.http.send({
          method: "POST",
          url: new URL(await k.endpoint("configuration_endpoint")),
          headers: { authorization: `Bearer ${k.token}`, "content-type": "application/json" },
          body: `{"delivery": {"method": "${methodUrn("poll")}"}, "description": `,
          label: o.label ?? "create stream",
          tags: ["stream-management", ...(o.tags ?? [])],
        }),
    },
    {
      what: "a JSON array, not an object",
      raw: true,
      send: (o) => k.call("POST", "configuration_endpoint", { ...o, json: [base] }),
    },
    object("delivery a string, not an object", { delivery: methodUrn("poll") }),
    object("an unknown delivery method URN", {
      delivery: {
        method: "urn:example:idconform:no-such-delivery-method",
        endpoint_url: "http://127.0.0.1:9/idconform-unknown-method",
      },
    }),
    push("push delivery without endpoint_url", {}),
    push('push endpoint_url "not a url"', { endpoint_url: "not a url" }),
    push('push endpoint_url "/relative/push" (not absolute)', { endpoint_url: "/relative/push" }),
    push("push endpoint_url a number", { endpoint_url: 42 }),
    object("events_requested a string, not an array", { events_requested: CAEP_EVENT_URIS[0] }),
    object("events_requested holding a number", { events_requested: [CAEP_EVENT_URIS[0], 42] }),
    object("description a number, not a string", { description: 42 }),
  ];
  if (methods.includes("push")) {
    const { body: p } = await k.createBody("push", { label: "invalid create (authorization_header)" });
    const d = isObject(p.delivery) ? p.delivery : {};
    probes.push(
      object("push authorization_header a number", { delivery: { ...d, authorization_header: 42 } }),
    );
  }
  return probes;
}

/**
 * Of the streams new in the Receiver's list, those no other check of the run created (none
 * noted in the run's ledger within the grace) and that still exist, with their configuration's
 * text. Checks run beside this one with the same token, so a new stream alone proves nothing.
 */
async function unexplained(
  k: StreamClient,
  fresh: readonly string[],
): Promise<{ id: string; config: string }[]> {
  let rest = [...fresh];
  const deadline = Date.now() + Math.max(LEDGER_GRACE_MS, k.c.profile.eventTimeoutMs);
  while (rest.length > 0) {
    const noted = new Set((await streams(k.provided.runDir)).map((e) => e.streamId));
    rest = rest.filter((id) => !noted.has(id));
    if (rest.length === 0 || Date.now() >= deadline || k.c.signal.aborted) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const out: { id: string; config: string }[] = [];
  for (const id of rest.slice(0, 20)) {
    const res = await k.read(id, { label: "read a stream new in the list" });
    // Gone already: another check deleted its own stream.
    if (res.status === 200) out.push({ id, config: res.text });
  }
  return out;
}

/** The push authorization the stream was created with, for a PUT that must repeat it. */
const authorizationOf = (s: Stream): Record<string, unknown> =>
  s.authorization !== undefined ? { authorization_header: s.authorization } : {};

/** The properties of a configuration a refused change must leave as they were, each as JSON text. */
function watched(config: Record<string, unknown>): Record<string, string | undefined> {
  const names = ["iss", "aud", "delivery", "events_requested", "events_delivered", "description"];
  return Object.fromEntries(names.map((n) => [n, canonicalJson(config[n])]));
}

/** JSON text with object members in name order, so that member order alone is no change. */
function canonicalJson(v: unknown): string | undefined {
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : isObject(x)
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((n) => [n, sort(x[n])]),
          )
        : x;
  return v === undefined ? undefined : JSON.stringify(sort(v));
}

/**
 * The invalid updates and replacements of the stream `s` (SSF §8.1.1.3, §8.1.1.4): each is a
 * valid request with one thing wrong, among them a Transmitter-Supplied property (iss, aud,
 * events_delivered) that is not the Transmitter's value, which §8.1.1.3 says "MUST match".
 */
function invalidChanges(k: StreamClient, s: Stream, m: DeliveryMethod, push: boolean): InvalidCreate[] {
  const delivery = isObject(s.config.delivery) ? s.config.delivery : {};
  // A valid replacement: the stream's own delivery, other events and description.
  const full: Record<string, unknown> = {
    delivery:
      m === "push"
        ? { method: delivery.method, endpoint_url: delivery.endpoint_url, ...authorizationOf(s) }
        : { method: methodUrn(m) },
    events_requested: CAEP_EVENT_URIS.slice(1, 4),
    description: `idconform ${k.c.runId}: replaced by an invalid request`,
  };
  const patch = (what: string, changes: Record<string, unknown>): InvalidCreate => ({
    what: `update (PATCH) with ${what}`,
    send: (o) =>
      k.update(s.id, { description: `idconform ${k.c.runId}: updated by an invalid request`, ...changes }, o),
  });
  const put = (what: string, changes: Record<string, unknown>): InvalidCreate => ({
    what: `replace (PUT) with ${what}`,
    send: (o) => k.replace(s.id, { ...full, ...changes }, o),
  });
  const cut = (method: "PATCH" | "PUT", json: Record<string, unknown>): InvalidCreate => ({
    what: `${method === "PATCH" ? "update (PATCH)" : "replace (PUT)"} with a body that is not JSON`,
    send: async (o) =>
      k.c.http.send({
        method,
        url: new URL(await k.endpoint("configuration_endpoint")),
        headers: { authorization: `Bearer ${k.token}`, "content-type": "application/json" },
        body: JSON.stringify({ stream_id: s.id, ...json }).slice(0, -2),
        label: o.label ?? `${method} configuration_endpoint`,
        tags: ["stream-management", ...(o.tags ?? [])],
      }),
  });
  const delivered = Array.isArray(s.config.events_delivered) ? s.config.events_delivered : [];
  const probes: InvalidCreate[] = [
    cut("PATCH", { description: "idconform: cut off" }),
    {
      what: "update (PATCH) with a JSON array body, not an object",
      send: (o) =>
        k.call("PATCH", "configuration_endpoint", { ...o, json: [{ stream_id: s.id, description: "x" }] }),
    },
    patch("delivery a string, not an object", { delivery: methodUrn(m) }),
    patch("events_requested a string, not an array", { events_requested: CAEP_EVENT_URIS[0] }),
    patch("events_requested holding a number", { events_requested: [CAEP_EVENT_URIS[0], 42] }),
    patch("description a number, not a string", { description: 42 }),
    patch("iss not the Transmitter's (a Transmitter-Supplied property)", {
      iss: "https://issuer.idconform.invalid/not-this-transmitter",
    }),
    patch("events_delivered not the stream's (a Transmitter-Supplied property)", {
      events_delivered: delivered.length > 0 ? [] : [CAEP_EVENT_URIS[0]],
    }),
    patch("events_supported not the Transmitter's (a Transmitter-Supplied property)", {
      events_supported: [UNKNOWN_EVENT],
    }),
    cut("PUT", full),
    put("an unknown delivery method URN", {
      delivery: {
        method: "urn:example:idconform:no-such-delivery-method",
        endpoint_url: "http://127.0.0.1:9/idconform-unknown-method",
      },
    }),
    put("events_requested a string, not an array", { events_requested: CAEP_EVENT_URIS[0] }),
    put("description a number, not a string", { description: 42 }),
    put("aud not the stream's (a Transmitter-Supplied property)", {
      aud: "https://receiver.idconform.invalid/not-this-stream",
    }),
  ];
  if (push)
    probes.push(
      put('push endpoint_url "not a url"', {
        delivery: { method: methodUrn("push"), endpoint_url: "not a url" },
      }),
    );
  return probes;
}
