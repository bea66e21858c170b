import { defineCheck, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed, typeIs, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { refusalProblem } from "../refusal.js";
import { decodeStatement, isObject, LEEWAY, now, verifyWith, type Json } from "../statements.js";
import { baseList, withQuery } from "./fetch-list.js";
import { walkExtendedList } from "../walk.js";

export const EVENTS_TYPE = "application/entity-events-statement+jwt";
/** The event types of specs/001 Events; `jwks_updates` is the spelling of one public example. */
const KNOWN = [
  "registration",
  "metadata_update",
  "metadata_policy_update",
  "jwks_update",
  "revocation",
  "suspension",
];
const UPDATES = ["metadata_update", "metadata_policy_update", "jwks_update"];

/** An absolute URL (a fragment is fine: documentation may point into a page). */
function absoluteUrl(v: unknown): boolean {
  if (typeof v !== "string") return false;
  try {
    return new URL(v).protocol.length > 1;
  } catch {
    return false;
  }
}

interface Statement {
  readonly sub: string;
  readonly res: HttpResponse;
  readonly token: string;
  readonly header: Json;
  readonly payload: Json;
  readonly events: readonly Json[];
}

/** The rules judged on the events statement of each listed subordinate. */
const PER_SUBORDINATE = [
  "FED-EVT-OK",
  "FED-EVT-TYP",
  "FED-EVT-SIGNATURE",
  "FED-EVT-ISS-SUB",
  "FED-EVT-IAT",
  "FED-EVT-EVENTS",
  "FED-EVT-EVENT-MEMBERS",
  "FED-EVT-EVENT-KNOWN",
  "FED-EVT-REGISTRATION-ALONE",
] as const;

/** FED-EVT-ERROR-JSON on every answer that is not a 200 (none: nothing to judge). */
async function judgeErrors(c: Ctx, answers: readonly HttpResponse[]): Promise<void> {
  const errors = answers.filter((r) => r.status !== 200);
  if (errors.length === 0) {
    c.skipOnly("FED-EVT-ERROR-JSON", "no error answer to judge", "other");
    return;
  }
  await c.each("FED-EVT-ERROR-JSON", errors, "error answer", (r) =>
    typeIs(r, "application/json") && isObject(r.json)
      ? undefined
      : {
          expected: "application/json with a JSON object",
          actual: `${r.status} ${r.header("content-type") ?? "(no Content-Type)"}`,
          res: r,
          kind: "malformed",
        },
  );
}

/** specs/001 Endpoints: Subordinate events; Resources: Subordinate events statement; Events. */
const statementChecks = [
  defineCheck<FederationProfile>({
    id: "federation.events",
    title:
      "the events endpoint answers each subordinate with an entity-events-statement+jwt signed by a key of the Entity Configuration, iss the target, sub as asked, whose events have iat and a known type, registration never with an update at its time; an unknown sub is a JSON 4xx",
    requirements: [
      ...PER_SUBORDINATE,
      "FED-EVT-INFO-URI-HTTPS",
      "FED-EVT-ERROR-JSON",
      "FED-EVT-UNKNOWN-SUB",
      "FED-EVT-NO-SUB",
    ],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const url = await f.endpoint("federation_subordinate_events_endpoint");
      const get = (sub: string, label: string): Promise<HttpResponse> =>
        c.http.get(withQuery(url, [["sub", sub]]), { label, tags: [TAG.events] });
      // Subjects that are no Immediate Subordinate: an unknown one, and the target itself (an
      // entity it knows, never its own subordinate). Each a JSON 4xx error.
      const probes = [
        [`${f.entityId.replace(/\/+$/, "")}/idconform-unknown-${c.runId.slice(-6)}`, "an unknown sub"],
        [f.entityId, "the target's own Entity Identifier as sub"],
      ] as const;
      const unknowns: HttpResponse[] = [];
      for (const [sub, what] of probes) unknowns.push(await get(sub, `events of ${what}`));
      await c.each("FED-EVT-UNKNOWN-SUB", [0, 1] as const, "sub", (i) => {
        const res = unknowns[i] as HttpResponse;
        return res.status >= 400 && res.status < 500
          ? undefined
          : {
              expected: `a 4xx error for ${probes[i][1]}`,
              actual: `${res.status}`,
              res,
              kind: res.status < 300 ? "accepted" : "wrong-status",
            };
      });
      // No sub at all: the request is incomplete.
      const ns = await c.http.get(url, { label: "events without sub", tags: [TAG.events] });
      unknowns.push(ns);
      const noSub = refusalProblem(ns, ["invalid_request"], {
        expected: "an error answer with error invalid_request",
      });
      c.check("FED-EVT-NO-SUB", noSub === undefined, noSub);
      const listed = await baseList(c, f);
      // The unknown sub was judged without the list (and its error answer is judged here);
      // what needs the subordinates cannot be.
      if (listed === undefined) {
        await judgeErrors(c, unknowns);
        for (const id of [...PER_SUBORDINATE, "FED-EVT-INFO-URI-HTTPS"])
          c.skipOnly(id, "the base list is not a list: see FED-LIST-OK", "dependency");
        return;
      }
      const subs = listed.slice(0, c.profile.walk.fetchMax);
      const answers: { sub: string; res: HttpResponse }[] = [];
      for (const sub of subs) answers.push({ sub, res: await get(sub, `events of ${sub}`) });
      await judgeErrors(c, [...unknowns, ...answers.map((a) => a.res)]);
      const statements: Statement[] = [];
      await c.each("FED-EVT-OK", answers, "subordinate", ({ sub, res }): Details | undefined => {
        const d = decodeStatement(res.text);
        // A statement served under another media type is still judged by the other rules.
        if (res.status === 200 && d.ok) {
          const ev = d.payload.federation_registration_events;
          statements.push({
            sub,
            res,
            token: res.text,
            header: d.header,
            payload: d.payload,
            events: Array.isArray(ev) ? ev.filter(isObject) : [],
          });
        }
        if (res.status === 200 && typeIs(res, EVENTS_TYPE) && d.ok) return undefined;
        return {
          expected: `200 ${EVENTS_TYPE} with a JWT for sub ${sub}`,
          actual: `${res.status} ${res.header("content-type") ?? "(no Content-Type)"}${d.ok ? "" : `: ${d.why}`}`,
          res,
          kind: res.status !== 200 ? "wrong-status" : d.ok ? "wrong-value" : "malformed",
        };
      });
      await c.each("FED-EVT-TYP", statements, "statement", (s) =>
        s.header.typ === "entity-events-statement+jwt"
          ? undefined
          : {
              expected: "typ entity-events-statement+jwt",
              actual: `typ ${quote(s.header.typ ?? null)} (sub ${s.sub})`,
              res: s.res,
            },
      );
      await c.each("FED-EVT-SIGNATURE", statements, "statement", async (s) => {
        const why = await verifyWith(s.token, s.header, ec.keys);
        return why === undefined
          ? undefined
          : {
              expected: "signed with a key of the Entity Configuration",
              actual: `${why} (sub ${s.sub})`,
              res: s.res,
            };
      });
      await c.each("FED-EVT-ISS-SUB", statements, "statement", (s) =>
        s.payload.iss === f.entityId && s.payload.sub === s.sub
          ? undefined
          : {
              expected: `iss ${f.entityId}, sub ${s.sub}`,
              actual: `iss ${quote(s.payload.iss ?? null)}, sub ${quote(s.payload.sub ?? null)}`,
              res: s.res,
            },
      );
      await c.each("FED-EVT-IAT", statements, "statement", (s) => {
        const { iat, exp } = s.payload;
        const t = now();
        const bad =
          typeof iat !== "number"
            ? `iat ${quote(iat ?? null)}`
            : iat > t + LEEWAY
              ? `iat ${iat} in the future`
              : exp !== undefined && (typeof exp !== "number" || exp < t - LEEWAY)
                ? `exp ${quote(exp)} past or not a number`
                : undefined;
        return bad === undefined
          ? undefined
          : {
              expected: "a numeric iat not in the future; exp, when present, not past",
              actual: `${bad} (sub ${s.sub})`,
              res: s.res,
            };
      });
      await c.each("FED-EVT-EVENTS", statements, "statement", (s) => {
        const ev = s.payload.federation_registration_events;
        return Array.isArray(ev) && ev.every(isObject)
          ? undefined
          : {
              expected: "federation_registration_events, an array of objects",
              actual: `${quote(ev ?? null, 120)} (sub ${s.sub})`,
              res: s.res,
              kind: ev === undefined ? "missing" : "malformed",
            };
      });
      const events = statements.flatMap((s) => s.events.map((e) => ({ e, s })));
      await c.each("FED-EVT-EVENT-MEMBERS", events, "event", ({ e, s }) => {
        const problems = [
          typeof e.iat !== "number" ? `iat ${quote(e.iat ?? null)}` : "",
          typeof e.event !== "string" ? `event ${quote(e.event ?? null)}` : "",
          e.event_description !== undefined && typeof e.event_description !== "string"
            ? "event_description not a string"
            : "",
          e.information_uri !== undefined && !absoluteUrl(e.information_uri)
            ? `information_uri ${quote(e.information_uri)}`
            : "",
        ].filter(Boolean);
        return problems.length === 0
          ? undefined
          : {
              expected: "iat a number, event a string",
              actual: `${problems.join("; ")} (sub ${s.sub})`,
              res: s.res,
            };
      });
      const known = new Set([...KNOWN, ...c.profile.eventTypes]);
      await c.each("FED-EVT-EVENT-KNOWN", events, "event", ({ e, s }) =>
        typeof e.event !== "string" || known.has(e.event)
          ? undefined
          : {
              expected: `one of ${[...known].join(", ")} (or a type listed in suites.federation.eventTypes)`,
              actual: `${quote(e.event)}${e.event === "jwks_updates" ? " (the spelling of one public example; the event is jwks_update)" : ""} (sub ${s.sub})`,
              res: s.res,
              kind: "wrong-value",
            },
      );
      // Judged on the statements that hold events: one without any says nothing of the rule.
      const withEvents = statements.filter((s) => s.events.length > 0);
      await c.each("FED-EVT-REGISTRATION-ALONE", withEvents, "statement holding events", (s) => {
        const regs = new Set(s.events.filter((e) => e.event === "registration").map((e) => e.iat));
        const clash = s.events.find(
          (e) => typeof e.event === "string" && UPDATES.includes(e.event) && regs.has(e.iat),
        );
        return clash === undefined
          ? undefined
          : {
              expected: "no update event at the time of a registration",
              actual: `${String(clash.event)} at iat ${String(clash.iat)}, the registration's (sub ${s.sub})`,
              res: s.res,
            };
      });
      const uris = events.filter(({ e }) => e.information_uri !== undefined);
      if (uris.length === 0)
        c.skipOnly("FED-EVT-INFO-URI-HTTPS", "no event carries an information_uri", "other");
      else
        await c.each("FED-EVT-INFO-URI-HTTPS", uris, "information_uri", ({ e, s }) =>
          typeof e.information_uri === "string" && e.information_uri.startsWith("https://")
            ? undefined
            : { expected: "an https URL", actual: `${quote(e.information_uri)} (sub ${s.sub})`, res: s.res },
        );
      if (listed.length > subs.length)
        for (const id of PER_SUBORDINATE.filter((x) => x !== "FED-EVT-EVENT-KNOWN"))
          c.partly(
            id,
            `judged on the first ${subs.length} of ${listed.length} subordinates (suites.federation.walk.fetchMax)`,
          );
    },
  }),
];

/**
 * specs/001 Extended listing response, entry object (updated: time of update, a change to keys,
 * metadata policies or constraints); Events (metadata_update, metadata_policy_update: updated
 * in the Subordinate Statement; jwks_update). Both date the same changes, so no update event of
 * a subordinate's history is later than the updated the extended list gives it.
 */
const updatedAgreesChecks = [
  defineCheck<FederationProfile>({
    id: "federation.events-updated-agrees",
    title:
      "no metadata_update, metadata_policy_update or jwks_update event of a subordinate's history is later than the updated time the extended list gives that subordinate",
    requirements: ["FED-EVT-UPDATED-AGREES"],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_subordinate_events_endpoint");
      const xl = await f.endpoint("federation_extended_list_endpoint");
      // The first walk.fetchMax entries with a numeric updated are kept: those are judged.
      const max = c.profile.walk.fetchMax;
      let withUpdated = 0;
      let withoutUpdated = 0;
      const w = await walkExtendedList(c, xl, {
        label: "extended list, audit_timestamps",
        params: [["audit_timestamps", "true"]],
        keepEntries: true,
        keepIf: (e) => {
          if (typeof e.updated !== "number" || typeof e.id !== "string") {
            withoutUpdated++;
            return false;
          }
          return ++withUpdated <= max;
        },
      });
      const first = w.pages[0];
      if (
        first?.shape !== undefined &&
        first.res.status === 400 &&
        isObject(first.res.json) &&
        first.res.json.error === "unsupported_parameter"
      )
        return c.skip(
          "audit_timestamps is refused as unsupported_parameter: the list gives no updated",
          "not-offered",
        );
      if (w.stopped !== undefined)
        c.skip(
          `the walk with audit_timestamps did not end (${w.stopped}): see FED-XL-WALK-ONCE`,
          "dependency",
        );
      const updated = new Map<string, number>();
      for (const p of w.pages)
        for (const e of p.entries)
          if (typeof e.updated === "number" && typeof e.id === "string") updated.set(e.id, e.updated);
      if (updated.size === 0)
        return c.skip("no entry carries a numeric updated: see FED-XL-AUDIT-TIMESTAMPS", "dependency");
      const subs = [...updated.keys()];
      const judged: { sub: string; res: HttpResponse; updated: number; events: Json[] }[] = [];
      const unusable: string[] = [];
      for (const sub of subs) {
        const res = await c.http.get(withQuery(url, [["sub", sub]]), {
          label: `events of ${sub}`,
          tags: [TAG.events],
        });
        const d = decodeStatement(res.text);
        // The history the target gives for the subject asked for, however it is signed or
        // addressed (FED-EVT-OK, -SIGNATURE and -ISS-SUB judge that): both claims are the
        // target's own. Only a statement naming another subject is left unjudged.
        if (
          res.status !== 200 ||
          !d.ok ||
          (d.payload.sub !== undefined && d.payload.sub !== sub) ||
          !Array.isArray(d.payload.federation_registration_events)
        ) {
          unusable.push(sub);
          continue;
        }
        judged.push({
          sub,
          res,
          updated: updated.get(sub)!,
          events: d.payload.federation_registration_events.filter(isObject),
        });
      }
      await c.each("FED-EVT-UPDATED-AGREES", judged, "subordinate", (x) => {
        const later = x.events
          .filter(
            (e) => typeof e.event === "string" && UPDATES.includes(e.event) && typeof e.iat === "number",
          )
          .sort((a, b) => (b.iat as number) - (a.iat as number))[0];
        return later === undefined || (later.iat as number) <= x.updated
          ? undefined
          : {
              expected: `no update event after ${x.updated}, the updated the extended list gives ${x.sub}`,
              actual: `${String(later.event)} at iat ${String(later.iat)}, ${(later.iat as number) - x.updated} s later`,
              res: x.res,
              kind: "wrong-value",
            };
      });
      if (withUpdated > subs.length)
        c.partly(
          "FED-EVT-UPDATED-AGREES",
          `judged on the first ${subs.length} of ${withUpdated} subordinates (suites.federation.walk.fetchMax)`,
        );
      if (unusable.length > 0)
        c.partly(
          "FED-EVT-UPDATED-AGREES",
          `${unusable.length} subordinate(s) without a readable, verified events statement (the first ${unusable[0]}; see FED-EVT-*)`,
        );
      if (withoutUpdated > 0)
        c.partly(
          "FED-EVT-UPDATED-AGREES",
          `${withoutUpdated} entries without a numeric updated (see FED-XL-AUDIT-TIMESTAMPS)`,
        );
    },
  }),
];

/** specs/001 Endpoints: Subordinate events. */
export const eventsChecks = [...statementChecks, ...updatedAgreesChecks];
