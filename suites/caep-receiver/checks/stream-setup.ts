import { defineCheck, type CheckContext, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { MockLogEntry } from "../../../src/http/mock-control.js";
import { DELIVERY_POLL, DELIVERY_PUSH } from "../../../src/protocols/caep.js";
import type { ConfigurationAnswer } from "../../../mocks/transmitter/types.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient } from "../receiver-client.js";

type Ctx = CheckContext<CaepReceiverProfile>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** How long the check waits for the Receiver's verification request once its stream exists. */
const VERIFY_WAIT_MS = 2000;

/** The Transmitter's endpoints as paths of the mock's log. */
interface Layout {
  readonly conf: ConfigurationAnswer;
  readonly discovery: string;
  readonly configuration: string;
  readonly verification: string;
  /** Every stream management path (SSF §8: configuration, status, subjects, verification). */
  readonly management: readonly string[];
}

async function layout(k: ReceiverClient): Promise<Layout> {
  const conf = await k.mock.configuration();
  const path = (u: string): string => new URL(u).pathname;
  return {
    conf,
    discovery: conf.discoveryPath,
    configuration: path(conf.configuration_endpoint),
    verification: path(conf.verification_endpoint),
    management: [
      conf.configuration_endpoint,
      conf.status_endpoint,
      conf.add_subject_endpoint,
      conf.remove_subject_endpoint,
      conf.verification_endpoint,
    ].map(path),
  };
}

/** The push authorization a Receiver asks for in its stream requests is a secret: no output shows it. */
function hideAuthorizations(c: Ctx, log: readonly MockLogEntry[]): void {
  for (const e of log) {
    const p = parsed(e);
    const d = p.ok && isObject(p.value) ? p.value.delivery : undefined;
    const a = isObject(d) ? d.authorization_header : undefined;
    if (typeof a === "string" && a.length >= 4) c.secret(a, "PUSH_AUTHORIZATION");
  }
}

/** A request as a finding names it ("POST /ssf/stream, mock log #4"). */
const named = (e: MockLogEntry): string => `${e.method} ${e.path} (mock log #${e.seq})`;

function parsed(e: MockLogEntry): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(e.body) as unknown };
  } catch {
    return { ok: false };
  }
}

const notExercised = (c: Ctx): void => {
  if (c.profile.stream !== "receiver-creates")
    c.skip(
      "not exercised: preconfigured stream (suites.caep-receiver.stream: preconfigured): the Receiver does not set up its stream at the mock",
      "not-exercised",
    );
};

/** Every logged request to a stream management endpoint carries the Receiver's token (SSF §8). */
function judgeAuth(c: Ctx, l: Layout, log: readonly MockLogEntry[]): Promise<boolean> {
  const calls = log.filter((e) => l.management.includes(e.path));
  return c.each("CAEPR-STREAM-AUTH", calls, "stream management requests", (e) => {
    const a = e.headers.authorization;
    return a === "present"
      ? undefined
      : {
          message: `${named(e)} ${a === undefined ? "carries no authorization" : "carries an authorization other than the Receiver's token"}`,
          expected:
            "Authorization: Bearer with the token the Transmitter gave the Receiver (transmitter.receiverToken)",
          actual:
            a === undefined
              ? "no Authorization header"
              : "a different or malformed Authorization (not shown)",
          kind: a === undefined ? "missing" : "wrong-value",
        };
  });
}

/** Every stream management request with a body is a JSON object labelled application/json. */
function judgeJson(c: Ctx, l: Layout, log: readonly MockLogEntry[]): Promise<boolean> {
  const withBody = log.filter((e) => l.management.includes(e.path) && e.body.trim() !== "");
  return c.each("CAEPR-STREAM-JSON", withBody, "stream management requests with a body", (e) => {
    const type = e.headers["content-type"];
    const p = parsed(e);
    if (!p.ok || !isObject(p.value))
      return {
        message: `${named(e)}: the body is not a JSON object`,
        expected: "a JSON object (SSF §8.1.1)",
        // Not the body itself: it may hold the push authorization the Receiver chose.
        actual: p.ok
          ? `a JSON ${Array.isArray(p.value) ? "array" : p.value === null ? "null" : typeof p.value}`
          : `not JSON (${e.body.length} characters)`,
        kind: "malformed",
      };
    if (!/^application\/json\s*(;|$)/i.test(type ?? ""))
      return {
        message: `${named(e)}: ${type === undefined ? "no Content-Type" : "not labelled application/json"}`,
        expected: "Content-Type: application/json",
        actual: type === undefined ? "no Content-Type" : quote(type, 80),
        kind: type === undefined ? "missing" : "wrong-value",
      };
    return undefined;
  });
}

/** What is wrong with a create request's delivery (SSF §6.1, §8.1.1.1), or undefined. */
function deliveryProblem(body: Record<string, unknown>, advertised: readonly string[]): Details | undefined {
  const d = body.delivery;
  const offered = `advertised: ${advertised.join(", ") || "none"}`;
  if (d === undefined)
    // No delivery means poll (SSF §8.1.1.1).
    return advertised.includes(DELIVERY_POLL)
      ? undefined
      : {
          message: "no delivery (which means poll), though poll is not advertised",
          expected: offered,
          actual: "no delivery member",
          kind: "wrong-value",
        };
  if (!isObject(d))
    return {
      message: "delivery is not a JSON object",
      expected: "delivery: {method, ...}",
      actual: quote(d, 120),
      kind: "malformed",
    };
  const method = d.method;
  if (typeof method !== "string" || !advertised.includes(method))
    return {
      message: "a delivery method the Transmitter did not advertise",
      expected: `delivery.method one of ${offered}`,
      actual: `delivery.method ${quote(method, 80)}`,
      kind: "wrong-value",
    };
  const url = d.endpoint_url;
  if (method === DELIVERY_PUSH) {
    const ok =
      typeof url === "string" && URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol);
    return ok
      ? undefined
      : {
          message: "a push stream without an absolute http(s) endpoint_url",
          expected:
            "delivery.endpoint_url: the absolute URL SETs are pushed to (set by the Receiver, SSF §6.1.1)",
          actual: `delivery.endpoint_url ${quote(url, 120)}`,
          kind: url === undefined ? "missing" : "malformed",
        };
  }
  if (method === DELIVERY_POLL && url !== undefined)
    return {
      message: "a poll stream that names its own endpoint_url",
      expected: "no endpoint_url: the Transmitter supplies the poll URL (SSF §6.1.2)",
      actual: `delivery.endpoint_url ${quote(url, 120)}`,
      kind: "wrong-value",
    };
  return undefined;
}

/** What is wrong with a create request's events_requested (SSF §8.1.1), or undefined. */
function eventsProblem(body: Record<string, unknown>): Details | undefined {
  const ev = body.events_requested;
  if (ev === undefined) return undefined;
  const expected = "events_requested: a non-empty array of event type URIs";
  if (!Array.isArray(ev))
    return {
      message: "events_requested is not an array",
      expected,
      actual: quote(ev, 120),
      kind: "malformed",
    };
  if (ev.length === 0)
    return { message: "events_requested is empty", expected, actual: "[]", kind: "wrong-value" };
  const bad = ev.find((x) => typeof x !== "string" || !URL.canParse(x));
  return bad === undefined
    ? undefined
    : {
        message: "events_requested holds something that is not an event type URI",
        expected,
        actual: quote(bad, 120),
        kind: "malformed",
      };
}

/**
 * SSF 1.0 §7 and §8 (stream: receiver-creates): how the Receiver set up its stream at the mock
 * Transmitter, read from the mock's log of what it sent.
 */
export const streamChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.stream-setup",
    title:
      "the Receiver reads the SSF configuration at the well-known path, then creates its stream with an advertised delivery method and event type URIs, authorized and as JSON, and asks for verification with a state",
    requirements: [
      "CAEPR-STREAM-DISCOVERY",
      "CAEPR-STREAM-AUTH",
      "CAEPR-STREAM-DELIVERY",
      "CAEPR-STREAM-EVENTS",
      "CAEPR-STREAM-VERIFICATION",
      "CAEPR-STREAM-JSON",
    ],
    timeoutMs: 60_000,
    async run(c) {
      notExercised(c);
      const k = new ReceiverClient(c);
      const l = await layout(k);
      // Not k.stream(): a Receiver that found no configuration creates nothing, and that is a finding here.
      const stream = await k.mock.waitForStream(c.profile.streamSetupTimeoutMs);
      const created = stream !== undefined && stream.createdBy === "receiver";
      if (created && !(await k.mock.log(l.verification)).some((e) => e.method === "POST"))
        await k.mock.wait(l.verification, 1, VERIFY_WAIT_MS);
      const log = await k.mock.log("", 0);
      hideAuthorizations(c, log);
      const truncated = (log[0]?.seq ?? 1) > 1;
      const creates = log.filter((e) => e.method === "POST" && e.path === l.configuration);

      // Discovery: GET at host + /.well-known/ssf-configuration + the issuer's path, before any stream is created.
      const reads = log.filter((e) => e.path === l.discovery);
      const firstGet = reads.find((e) => e.method === "GET");
      const elsewhere = log.filter((e) => e.path !== l.discovery && e.path.includes("ssf-configuration"));
      if (firstGet === undefined) {
        if (truncated && elsewhere.length === 0 && reads.length === 0)
          c.partly(
            "CAEPR-STREAM-DISCOVERY",
            "the mock's log no longer holds the Receiver's first requests",
            "other",
          );
        else
          c.check("CAEPR-STREAM-DISCOVERY", false, {
            message: "the Receiver never read the SSF configuration with GET at the well-known path",
            expected: `GET ${l.discovery} (the issuer ${k.issuer} with /.well-known/ssf-configuration after its host)`,
            actual:
              [...reads, ...elsewhere].slice(0, 3).map(named).join("; ") ||
              `no request for the configuration${creates.length > 0 ? `, yet it created a stream (${named(creates[0]!)})` : ""}`,
            kind: "missing",
          });
      } else {
        const early = creates.find((e) => e.seq < firstGet.seq);
        c.check("CAEPR-STREAM-DISCOVERY", early === undefined, {
          message: "the Receiver created its stream before it read the SSF configuration",
          expected: `GET ${l.discovery} before the create-stream request`,
          actual: early ? `${named(early)} came before ${named(firstGet)}` : "",
          kind: "wrong-value",
        });
      }

      await judgeAuth(c, l, log);
      await judgeJson(c, l, log);

      const advertised = l.conf.delivery_methods_supported;
      const bodies = creates.map((e) => ({ e, p: parsed(e) }));
      const objects = bodies.filter(
        (b): b is { e: MockLogEntry; p: { ok: true; value: Record<string, unknown> } } =>
          b.p.ok && isObject(b.p.value),
      );
      if (objects.length < bodies.length)
        for (const id of ["CAEPR-STREAM-DELIVERY", "CAEPR-STREAM-EVENTS"])
          c.partly(
            id,
            "a create-stream request whose body is not a JSON object could not be read (see CAEPR-STREAM-JSON)",
            "other",
          );
      await c.each("CAEPR-STREAM-DELIVERY", objects, "create-stream requests", ({ e, p }) => {
        const d = deliveryProblem(p.value, advertised);
        return d && { ...d, message: `${named(e)}: ${d.message}` };
      });
      await c.each("CAEPR-STREAM-EVENTS", objects, "create-stream requests", ({ e, p }) => {
        const d = eventsProblem(p.value);
        return d && { ...d, message: `${named(e)}: ${d.message}` };
      });

      // Verification (a MAY): a POST to verification_endpoint naming the stream it created, with a state.
      if (!created) {
        c.skipOnly(
          "CAEPR-STREAM-VERIFICATION",
          `the Receiver created no stream within ${c.profile.streamSetupTimeoutMs} ms: nothing to verify`,
          "dependency",
        );
        return;
      }
      const ids = new Set(
        (await k.mock.streams()).filter((s) => s.createdBy === "receiver").map((s) => s.streamId),
      );
      const asks = log.filter((e) => e.method === "POST" && e.path === l.verification);
      const good = asks.find((e) => {
        const p = parsed(e);
        return (
          p.ok &&
          isObject(p.value) &&
          typeof p.value.stream_id === "string" &&
          ids.has(p.value.stream_id) &&
          typeof p.value.state === "string" &&
          p.value.state !== ""
        );
      });
      c.check("CAEPR-STREAM-VERIFICATION", good !== undefined, {
        message:
          asks.length === 0
            ? "the Receiver did not ask for a verification event"
            : "no verification request names the created stream with a state",
        expected: `POST ${l.verification} with {stream_id: the created stream's id, state: a string}`,
        actual:
          asks.length === 0
            ? `no verification request within ${VERIFY_WAIT_MS} ms of the stream's creation`
            : asks
                .slice(0, 3)
                .map((e) => {
                  const p = parsed(e);
                  const b = p.ok && isObject(p.value) ? p.value : {};
                  return `${named(e)} stream_id ${quote(b.stream_id, 80)}, state ${quote(b.state, 60)}`;
                })
                .join("; "),
        kind: "missing",
      });
    },
  }),
];

/**
 * SSF §8 over the whole run (`stream.last.test.ts`): stream management calls the Receiver made
 * after its set-up (status reads, subject changes, a new verification) are judged as well.
 */
export const streamRunChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.stream-management-run",
    title: "every stream management request of the run carries the Receiver's authorization and sends JSON",
    requirements: ["CAEPR-STREAM-AUTH", "CAEPR-STREAM-JSON"],
    timeoutMs: 30_000,
    async run(c) {
      notExercised(c);
      const k = new ReceiverClient(c);
      const l = await layout(k);
      // Run on its own (not last), it still sees the set-up: the Receiver's stream is waited for.
      await k.mock.waitForStream(c.profile.streamSetupTimeoutMs);
      const log = await k.mock.log("", 0);
      hideAuthorizations(c, log);
      await judgeAuth(c, l, log);
      await judgeJson(c, l, log);
    },
  }),
];
