import { randomBytes } from "node:crypto";
import { defineCheck, type Details } from "../../../src/engine/check.js";
import { bearerCredentialAttacks, type ChallengeErrorAdvice } from "../../../src/engine/token-attacks.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import {
  CAEP_EVENT_URIS,
  methodUrn,
  StreamClient,
  type CallOptions,
  type EndpointName,
  type Stream,
} from "../client.js";
import { poll } from "../poller.js";
import type { CaepTransmitterProfile } from "../profile.js";
import {
  body,
  isObject,
  judgeChallenges,
  listedIds,
  said,
  type Ctx,
  methodsOf,
  offered,
} from "./stream-util.js";

/** One stream management request of every kind (SSF §8.1), made with the options given. */
type Op = readonly [name: string, endpoint: EndpointName, send: (o: CallOptions) => Promise<HttpResponse>];

/** The requests of `all` whose endpoint the Transmitter offers. */
async function served(k: StreamClient, all: readonly Op[]): Promise<Op[]> {
  const out: Op[] = [];
  for (const op of all) if (await offered(k, op[1])) out.push(op);
  return out;
}

function operations(k: StreamClient, s: Stream, subject: Record<string, unknown> & { format: string }): Op[] {
  const delivery = isObject(s.config.delivery) ? s.config.delivery : { method: methodUrn(s.method) };
  // One create body for every probe (a push body holds a mock Receiver slot).
  let probe: Promise<Record<string, unknown>> | undefined;
  return [
    [
      "create a stream",
      "configuration_endpoint",
      async (o) =>
        k.create(await (probe ??= k.createBody(s.method, { label: "probe" }).then((x) => x.body)), o),
    ],
    ["read the stream", "configuration_endpoint", (o) => k.read(s.id, o)],
    ["list streams", "configuration_endpoint", (o) => k.list(o)],
    [
      "update the stream",
      "configuration_endpoint",
      (o) => k.update(s.id, { description: "idconform: this change must be refused" }, o),
    ],
    [
      "replace the stream",
      "configuration_endpoint",
      (o) => k.replace(s.id, { delivery, events_requested: CAEP_EVENT_URIS.slice(0, 1) }, o),
    ],
    ["read the status", "status_endpoint", (o) => k.status(s.id, o)],
    ["disable the stream", "status_endpoint", (o) => k.setStatus(s.id, "disabled", o)],
    ["add a subject", "add_subject_endpoint", (o) => k.addSubject(s.id, k.subjects.fresh(), o)],
    ["remove a subject", "remove_subject_endpoint", (o) => k.removeSubject(s.id, subject, o)],
    [
      "request verification",
      "verification_endpoint",
      (o) => k.verify(s.id, `idc-${randomBytes(6).toString("hex")}`, o),
    ],
    // Last: a delete wrongly done would leave nothing for the others to probe.
    ["delete the stream", "configuration_endpoint", (o) => k.remove(s.id, o)],
  ];
}

/**
 * Credentials a stream management endpoint must refuse: the shared family's Bearer forms
 * (src/engine/token-attacks.ts; the JWS forgeries need the issuer's key, which a Receiver never
 * holds, and the token is opaque), near misses of the real token included.
 */
function badCredentials(
  c: Ctx,
  token: string,
): { what: string; o: CallOptions; malformed: boolean; challengeError?: ChallengeErrorAdvice }[] {
  return bearerCredentialAttacks(token, `idc-unknown-${randomBytes(16).toString("base64url")}`).map((b) => {
    // Near misses of the real token are secrets too: no output may show them.
    for (const v of b.secrets) c.secret(v, "RECEIVER_TOKEN_NEAR_MISS");
    return {
      what: b.title,
      o: b.authorization === null ? { token: null } : { authorization: b.authorization },
      malformed: b.malformed,
      ...(b.challengeError !== undefined ? { challengeError: b.challengeError } : {}),
    };
  });
}

const refusal = (status: number): boolean => status === 401 || status === 403 || status === 404;

export const accessChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-auth",
    title:
      "every stream management request without the Receiver's credentials (none, another scheme, an empty, malformed, unknown or near-miss Bearer token) is answered 401 with a WWW-Authenticate challenge (error invalid_token for a token never issued, none without credentials) and changes nothing (SSF 1.0 §8, §8.1; RFC 9110 §15.5.2; RFC 6750 §3)",
    requirements: ["CAEPT-STREAM-AUTH", "CAEPT-STREAM-CHALLENGE", "CAEPT-CHALLENGE-ERROR"],
    async run(c) {
      const R = "CAEPT-STREAM-AUTH";
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream (the Receiver's own)" });
      try {
        const subject = (await offered(k, "add_subject_endpoint"))
          ? await k.subscribe(s)
          : k.subjects.fresh();
        const probes = (await served(k, operations(k, s, subject))).flatMap(([op, , send]) =>
          badCredentials(c, k.token).map((b) => ({ op, send, ...b })),
        );
        const refused: { what: string; res: HttpResponse; challengeError?: ChallengeErrorAdvice }[] = [];
        await c.each(R, probes, "requests with bad credentials", async (p) => {
          const res = await p.send({ ...p.o, label: `${p.op} with ${p.what}`, tags: ["attack"] });
          if (res.status === 401)
            refused.push({
              what: `${p.op} with ${p.what}`,
              res,
              ...(p.challengeError !== undefined ? { challengeError: p.challengeError } : {}),
            });
          // RFC 6750 §3.1: a malformed request (an empty or malformed Bearer value) may be 400.
          return res.status === 401 || (p.malformed === true && res.status === 400)
            ? undefined
            : {
                message: `${p.op} with ${p.what} is not refused with 401`,
                expected: p.malformed
                  ? "401 (or 400 invalid_request for a malformed credential, RFC 6750 §3.1)"
                  : "401: authorization missing or failed",
                actual: said(res),
                res,
                kind: res.status >= 200 && res.status < 300 ? "accepted" : "wrong-status",
              };
        });
        await judgeChallenges(c, "CAEPT-STREAM-CHALLENGE", refused);
        // Nothing the probes asked for may have happened.
        const back = await k.read(s.id, { label: "read back (the Receiver's own token)" });
        const b = body(back);
        c.check(R, back.status === 200 && b.description === s.config.description, {
          message: "a request with bad credentials changed (or deleted) the stream",
          expected: `the stream as created (description ${quote(s.config.description ?? null)})`,
          actual: back.status === 200 ? `description ${quote(b.description)}` : said(back),
          res: back,
          kind: "accepted",
        });
        if (await offered(k, "status_endpoint")) {
          const st = await k.status(s.id, { label: "read status back" });
          c.check(R, st.status !== 200 || body(st).status !== "disabled", {
            message: "a request with bad credentials disabled the stream",
            expected: "the status the stream had (not disabled)",
            actual: `status ${quote(body(st).status)}`,
            res: st,
            kind: "accepted",
          });
        }
      } finally {
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-isolation",
    title:
      "another Receiver's token neither lists, reads, changes, deletes nor polls the first Receiver's stream (401, 403 or 404), and the stream stays as it was (SSF 1.0 §8, §6.1.2)",
    requirements: ["CAEPT-STREAM-ISOLATION"],
    async run(c) {
      const R = "CAEPT-STREAM-ISOLATION";
      const a = new StreamClient(c);
      const b = a.other();
      const methods = await methodsOf(c, a);
      const [m] = methods;
      const made: Stream[] = [];
      try {
        const s = await a.open(m, { label: "create stream (first Receiver)" });
        made.push(s);
        const subject = (await offered(a, "add_subject_endpoint"))
          ? await a.subscribe(s)
          : a.subjects.fresh();
        const p = methods.includes("poll")
          ? m === "poll"
            ? s
            : await a.open("poll", { label: "create poll stream (first Receiver)" })
          : undefined;
        if (p && p !== s) made.push(p);
        // A SET waiting on the poll stream, for the other Receiver's poll to (wrongly) hand out.
        if (p)
          await a.verify(p.id, `idc-${randomBytes(6).toString("hex")}`, {
            label: "queue a verification SET",
          });

        const listed = await b.list({ label: "list streams (other Receiver)", tags: ["attack"] });
        const ids = listedIds(listed) ?? [];
        c.check(R, !made.some((x) => ids.includes(x.id)), {
          message: "the other Receiver's list holds the first Receiver's stream",
          expected: `no stream_id of the first Receiver (${made.map((x) => x.id).join(", ")})`,
          actual: `stream_ids ${quote(ids, 300)}`,
          res: listed,
          kind: "accepted",
        });
        const probes = (await served(b, operations(b, s, subject))).filter(
          ([op]) => op !== "create a stream" && op !== "list streams",
        );
        await c.each(R, probes, "requests of the other Receiver", async ([op, , send]) => {
          const res = await send({ label: `${op} (other Receiver)`, tags: ["attack"] });
          return refusal(res.status) ? undefined : refused(`${op} with the other Receiver's token`, res);
        });
        if (p) {
          const got = await poll(
            c,
            p,
            { returnImmediately: true },
            {
              token: c.profile.secondReceiverToken ?? null,
              label: "poll the first Receiver's stream (other Receiver)",
              tags: ["attack"],
            },
          );
          const handed = got.sets?.length ?? 0;
          c.check(R, refusal(got.res.status) && handed === 0, {
            ...refused("polling with the other Receiver's token", got.res),
            ...(handed > 0
              ? {
                  message: `polling with the other Receiver's token handed out ${handed} SET(s) of the first Receiver's stream`,
                }
              : {}),
          });
        }
        const back = await a.read(s.id, { label: "read back (first Receiver)" });
        const bb = body(back);
        c.check(R, back.status === 200 && bb.description === s.config.description, {
          message: "the other Receiver's requests changed (or deleted) the first Receiver's stream",
          expected: `the stream as created (description ${quote(s.config.description ?? null)})`,
          actual:
            back.status === 200
              ? `description ${quote(bb.description)}, events_requested ${quote(bb.events_requested, 200)}`
              : said(back),
          res: back,
          kind: "accepted",
        });
        if (await offered(a, "status_endpoint")) {
          const st = await a.status(s.id, { label: "read status back (first Receiver)" });
          c.check(R, st.status !== 200 || body(st).status !== "disabled", {
            message: "the other Receiver disabled the first Receiver's stream",
            expected: "the status the stream had (not disabled)",
            actual: `status ${quote(body(st).status)}`,
            res: st,
            kind: "accepted",
          });
        }
      } finally {
        for (const x of made) await a.close(x);
      }
    },
  }),
];

/** A finding for a request of the wrong Receiver that was not refused. */
function refused(what: string, res: HttpResponse): Details {
  return {
    message: `${what} is not refused`,
    expected: "401, 403 or 404: the stream is not the caller's",
    actual: said(res),
    res,
    kind: res.status >= 200 && res.status < 300 ? "accepted" : "wrong-status",
  };
}
