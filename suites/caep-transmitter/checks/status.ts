import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { StreamClient, type CallOptions, type EndpointName, type Stream } from "../client.js";
import type { CaepTransmitterProfile } from "../profile.js";
import type { SubId } from "../subjects.js";
import { body, said, methodsOf, offered, refusedWith400 } from "./stream-util.js";

const STATUSES = ["enabled", "paused", "disabled"] as const;
/** Between two reads of a status change answered 202 (accepted, not yet decided). */
const READ_INTERVAL_MS = 100;

export const statusChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-status",
    title:
      "setting each of paused, disabled and enabled is answered 200 with that status (or 202), and reading the status then answers it (SSF 1.0 §8.1.2.1, §8.1.2.2)",
    requirements: ["CAEPT-STATUS"],
    async run(c) {
      const R = "CAEPT-STATUS";
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream" });
      try {
        const judgeRead = (res: HttpResponse, want?: string): boolean => {
          const b = body(res);
          const ok =
            res.status === 200 &&
            b.stream_id === s.id &&
            (STATUSES as readonly unknown[]).includes(b.status) &&
            (want === undefined || b.status === want);
          return c.check(R, ok, {
            message:
              res.status !== 200
                ? "reading the status is not answered 200"
                : want !== undefined && (STATUSES as readonly unknown[]).includes(b.status)
                  ? `the status read back is not the ${want} just set`
                  : "the status answer is not {stream_id, status} with a status of SSF",
            expected: `200 {stream_id: ${quote(s.id)}, status: ${want ?? "enabled, paused or disabled"}}`,
            actual:
              res.status === 200 ? `stream_id ${quote(b.stream_id)}, status ${quote(b.status)}` : said(res),
            res,
            kind: res.status !== 200 ? "wrong-status" : b.status === undefined ? "missing" : "wrong-value",
          });
        };
        judgeRead(await k.status(s.id, { label: "read status (new stream)" }));
        // Paused and disabled first, so each change is a change, then back to enabled.
        for (const want of ["paused", "disabled", "enabled"] as const) {
          const set = await k.setStatus(s.id, want, { reason: "idconform status check" });
          const b = body(set);
          c.check(R, set.status === 202 || (set.status === 200 && b.status === want), {
            message: `setting ${want} is not answered 200 with the updated status (nor 202)`,
            expected: `200 {stream_id, status: ${want}} (or 202)`,
            actual: set.status === 200 ? `status ${quote(b.status)}` : said(set),
            res: set,
            kind: set.status === 200 ? "wrong-value" : "wrong-status",
          });
          // A 202 leaves the decision for later: it is read until it shows or the bound passes.
          let read = await k.status(s.id, { label: `read status (after ${want})` });
          const deadline = Date.now() + c.profile.eventTimeoutMs;
          while (
            set.status === 202 &&
            body(read).status !== want &&
            Date.now() < deadline &&
            !c.signal.aborted
          ) {
            await new Promise((r) => setTimeout(r, READ_INTERVAL_MS));
            read = await k.status(s.id, { label: `read status (after ${want}, 202)` });
          }
          judgeRead(read, want);
        }
      } finally {
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-subjects",
    title:
      "adding a subject to the Receiver's stream is answered 200 (or 204) and removing it 204 (SSF 1.0 §8.1.3.2, §8.1.3.3)",
    requirements: ["CAEPT-SUBJECT-ADD", "CAEPT-SUBJECT-REMOVE"],
    async run(c) {
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream" });
      try {
        const subjects = [k.subjects.fresh(), k.subjects.fresh()];
        for (const [i, subject] of subjects.entries()) {
          // One with verified (true), one without: "if omitted, ... SHOULD assume verified".
          const add = await k.addSubject(s.id, subject, {
            ...(i === 0 ? { verified: true } : {}),
            label: `add subject ${i + 1}`,
          });
          c.check("CAEPT-SUBJECT-ADD", add.status === 200 || add.status === 204, {
            expected: "200 (an empty success; 204 taken too)",
            actual: said(add),
            res: add,
            kind: "wrong-status",
          });
        }
        for (const [i, subject] of subjects.entries()) {
          const rm = await k.removeSubject(s.id, subject, { label: `remove subject ${i + 1}` });
          c.check("CAEPT-SUBJECT-REMOVE", rm.status === 204, {
            expected: "204 No Content",
            actual: said(rm),
            res: rm,
            kind: "wrong-status",
          });
        }
      } finally {
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.management-invalid",
    title:
      "a status update, add or remove subject or verification request whose body is not valid (a status not of SSF, reason, verified or state of the wrong type, a body or subject that is none) is refused with 400, and the status stays as it was (SSF 1.0 §8.1.2.2, §8.1.3.2, §8.1.3.3, §8.1.4.2)",
    requirements: ["CAEPT-MANAGEMENT-INVALID"],
    async run(c) {
      const R = "CAEPT-MANAGEMENT-INVALID";
      const k = new StreamClient(c);
      const served: EndpointName[] = [];
      for (const e of MANAGED) if (await offered(k, e)) served.push(e);
      if (served.length === 0)
        c.skip(`not offered: the discovery document names none of ${MANAGED.join(", ")}`, "not-offered");
      for (const e of MANAGED.filter((x) => !served.includes(x)))
        c.note(`not offered: the discovery document names no ${e}; its invalid requests are not sent`);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream (the Receiver's own)" });
      try {
        // A subject of the stream, for the remove requests to name (each with one thing wrong).
        const subject = served.includes("add_subject_endpoint")
          ? await k.subscribe(s, "add a subject (for the remove requests)")
          : k.subjects.fresh();
        const status = served.includes("status_endpoint");
        const before = status
          ? await k.status(s.id, { label: "read status (before the invalid requests)" })
          : undefined;
        const was = before === undefined ? undefined : body(before).status;
        if (before !== undefined && (before.status !== 200 || typeof was !== "string"))
          c.partly(
            R,
            `the stream's status could not be read (answered ${said(before)}; see CAEPT-STATUS): a status changed by a refused update is seen only in its answer`,
          );
        const probes = invalidRequests(k, s, subject, served, was === "paused" ? "disabled" : "paused");
        await c.each(R, probes, "invalid stream management requests", async (p) => {
          const res = await p.send({ label: p.label, tags: ["attack"] });
          if (p.endpoint === "status_endpoint" && typeof was === "string") {
            const back = await k.status(s.id, { label: `read status (after ${p.label})` });
            const now = body(back).status;
            if (back.status === 200 && now !== was) {
              // Set back, so the next request is judged on the stream as it was.
              await k.setStatus(s.id, was, { label: "set the status back" });
              return {
                message: `${p.label} is not refused: the stream's status changed`,
                expected: `400, and the status still ${quote(was)}`,
                actual: `${said(res)}; the status then reads ${quote(now)}`,
                res: back,
                kind: "accepted",
              };
            }
            if (back.status !== 200)
              c.partly(
                R,
                `the stream's status could not be read after ${p.label} (answered ${said(back)}; see CAEPT-STATUS)`,
              );
          }
          return refusedWith400(
            p.label,
            res,
            "SSF's error tables give a request whose body cannot be parsed or is otherwise invalid",
          );
        });
      } finally {
        await k.close(s);
      }
    },
  }),
];

/** The endpoints CAEPT-MANAGEMENT-INVALID probes (SSF §8.1.2.2, §8.1.3.2, §8.1.3.3, §8.1.4.2). */
const MANAGED: readonly EndpointName[] = [
  "status_endpoint",
  "add_subject_endpoint",
  "remove_subject_endpoint",
  "verification_endpoint",
];

/** One request with one thing wrong: the endpoint, what the request is, how it is sent. */
interface InvalidRequest {
  readonly endpoint: EndpointName;
  readonly label: string;
  readonly send: (o: CallOptions) => Promise<HttpResponse>;
}

/**
 * The invalid requests on the stream `s`, for the endpoints `served`: each is a valid request
 * with one thing wrong (SSF §8.1.2.2, §8.1.3.2, §8.1.3.3, §8.1.4.2). `subject` is one of the
 * stream's; `other` a status the stream does not have, so an update wrongly applied shows.
 */
function invalidRequests(
  k: StreamClient,
  s: Stream,
  subject: SubId,
  served: readonly EndpointName[],
  other: string,
): InvalidRequest[] {
  const post =
    (endpoint: EndpointName, json: unknown) =>
    (o: CallOptions): Promise<HttpResponse> =>
      k.call("POST", endpoint, { ...o, json });
  // A request cut off mid-way: no JSON text.
  const notJson =
    (endpoint: EndpointName, valid: Record<string, unknown>) =>
    async (o: CallOptions): Promise<HttpResponse> =>
      k.c.http.send({
        method: "POST",
        url: new URL(await k.endpoint(endpoint)),
        headers: { authorization: `Bearer ${k.token}`, "content-type": "application/json" },
        body: JSON.stringify(valid).slice(0, -12),
        label: o.label ?? `POST ${endpoint}`,
        tags: ["stream-management", ...(o.tags ?? [])],
      });
  const { format, ...members } = subject;
  const [[member, value] = ["id", "idc-subject"]] = Object.entries(members);
  const badSubjects: [string, unknown][] = [
    ["subject left out", undefined],
    [`subject a string (its ${member}), not a subject identifier object`, value],
    ["subject without format", members],
    [`subject of format ${format} without its members`, { format }],
    // SSF 1.0 §3.3: a complex subject has a format field "and one or more Simple Subject Members".
    ['a complex subject with no simple subject member ({"format": "complex"})', { format: "complex" }],
    [
      `a complex subject whose user is a string (its ${member}), not a subject identifier`,
      { format: "complex", user: value },
    ],
  ];
  const subjectProbes = (endpoint: EndpointName, verb: string, named: SubId): InvalidRequest[] => {
    const valid = { stream_id: s.id, subject: named };
    return [
      { endpoint, label: `${verb} subject with a body that is not JSON`, send: notJson(endpoint, valid) },
      {
        endpoint,
        label: `${verb} subject with a JSON array body, not an object`,
        send: post(endpoint, [valid]),
      },
      ...badSubjects.map(([what, v]) => ({
        endpoint,
        label: `${verb} subject with ${what}`,
        send: post(endpoint, { stream_id: s.id, ...(v === undefined ? {} : { subject: v }) }),
      })),
    ];
  };
  const out: InvalidRequest[] = [];
  if (served.includes("status_endpoint"))
    out.push(
      {
        endpoint: "status_endpoint",
        label: "set status with a body that is not JSON",
        send: notJson("status_endpoint", { stream_id: s.id, status: other }),
      },
      ...(
        [
          ["set status 42 (a number, not a string)", { status: 42 }],
          ['set status "active" (not enabled, paused or disabled)', { status: "active" }],
          [`set status ${other} with reason 42 (a number, not a string)`, { status: other, reason: 42 }],
        ] as const
      ).map(([label, v]) => ({
        endpoint: "status_endpoint" as const,
        label,
        send: post("status_endpoint", { stream_id: s.id, ...v }),
      })),
    );
  if (served.includes("add_subject_endpoint")) {
    const fresh = k.subjects.fresh();
    out.push(...subjectProbes("add_subject_endpoint", "add", fresh), {
      endpoint: "add_subject_endpoint",
      label: 'add subject with verified "true" (a string, not a boolean)',
      send: post("add_subject_endpoint", { stream_id: s.id, subject: fresh, verified: "true" }),
    });
  }
  if (served.includes("remove_subject_endpoint"))
    out.push(...subjectProbes("remove_subject_endpoint", "remove", subject));
  if (served.includes("verification_endpoint"))
    out.push(
      {
        endpoint: "verification_endpoint",
        label: "request verification with a body that is not JSON",
        send: notJson("verification_endpoint", { stream_id: s.id, state: "idc-state" }),
      },
      ...(
        [
          ["state 42 (a number, not a string)", 42],
          ["state a JSON object, not a string", { value: "idc-state" }],
        ] as const
      ).map(([what, state]) => ({
        endpoint: "verification_endpoint" as const,
        label: `request verification with ${what}`,
        send: post("verification_endpoint", { stream_id: s.id, state }),
      })),
    );
  return out;
}
