import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import type { FindingKind } from "../../../src/engine/finding-kind.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { eventJson, parseSse, streamEnded, type SseEvent } from "../../../mocks/op/sse.js";
import type { CommandsProfile } from "../profile.js";
import { body, CommandClient, isError, refusalKind, said, type SendOptions } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

const STREAM_HEADERS = { accept: "text/event-stream", "cache-control": "no-cache" };
const ACCOUNTS = 3;
/** The answer to a resume the RP cannot serve (specs/002 area A Tenant Commands with streaming, Resume). */
const UNAVAILABLE = [[404, "last-event-id-unavailable"]] as const;

/** Sends audit_tenant for `tenant` as a Streaming Request and parses what arrives. */
async function auditTenant(
  k: CommandClient,
  tenant: string,
  o: SendOptions = {},
): Promise<{ res: HttpResponse; events: SseEvent[] }> {
  const { res } = await k.send("audit_tenant", {
    tenant,
    decode: true,
    // A stream ends with command-complete or error; an RP that keeps the connection open after
    // it is not waited for until the timeout.
    stopWhen: streamEnded,
    ...o,
    headers: { ...STREAM_HEADERS, ...o.headers },
    label: o.label ?? `audit_tenant ${tenant}`,
  });
  return { res, events: res.status === 200 ? parseSse(res.text) : [] };
}

/** What a finished stream says: the subs of its account-state events and the command-complete data. */
function summary(events: readonly SseEvent[]): {
  subs: string[];
  complete: Record<string, unknown> | undefined;
  last: string | undefined;
} {
  const subs = events.filter((e) => e.event === "account-state").map((e) => String(eventJson(e)?.sub ?? ""));
  const done = events.filter((e) => e.event === "command-complete");
  return {
    subs,
    complete: done.length === 1 ? (eventJson(done[0]!) ?? {}) : undefined,
    last: events.at(-1)?.event,
  };
}

/** Activates `n` accounts in `tenant` into `made` (so the caller's finally deletes them); skips when that fails. */
async function accounts(c: Ctx, k: CommandClient, tenant: string, n: number, made: string[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const sub = k.sub("stream");
    const res = await k.account("activate", sub, { tenant });
    if (res.status !== 200 && res.status !== 204)
      c.skip(`activate answered ${said(res)}: see CMD-ACTIVATE`, "dependency");
    made.push(sub);
  }
}

/** Problems of one finished stream: each of `made` once, no sub twice, total_accounts equal to the account-state events, command-complete last. */
function problems(events: readonly SseEvent[], made: readonly string[]): string[] {
  const s = summary(events);
  const out: string[] = [];
  const notOnce = made.filter((sub) => s.subs.filter((x) => x === sub).length !== 1);
  if (notOnce.length > 0) out.push(`not exactly once: ${notOnce.join(", ")}`);
  if (new Set(s.subs).size !== s.subs.length) out.push("an account listed twice");
  const noState = events.filter(
    (e) => e.event === "account-state" && typeof eventJson(e)?.account_state !== "string",
  );
  if (noState.length > 0) out.push(`${noState.length} account-state event(s) without account_state`);
  if (s.complete === undefined) out.push("command-complete missing or repeated");
  else if (s.complete.total_accounts !== s.subs.length)
    out.push(
      `total_accounts ${quote(s.complete.total_accounts ?? null)} for ${s.subs.length} account-state events`,
    );
  if (s.last !== "command-complete") out.push(`last event ${s.last ?? "none"}`);
  return out;
}

/**
 * The kind of a stream's `problems`: `missing` when something it must carry is absent (one of
 * `made`, account_state, command-complete or its total_accounts), else `wrong-value` (an
 * account twice, a wrong total, an event after command-complete).
 */
function problemsKind(events: readonly SseEvent[], made: readonly string[]): FindingKind {
  const s = summary(events);
  const done = events.filter((e) => e.event === "command-complete");
  const absent =
    made.some((sub) => !s.subs.includes(sub)) ||
    events.some((e) => e.event === "account-state" && eventJson(e)?.account_state === undefined) ||
    done.length === 0 ||
    (s.complete !== undefined && s.complete.total_accounts === undefined);
  return absent ? "missing" : "wrong-value";
}

/**
 * Decides CMD-STREAM-EVENT-IDS on every event of one stream (specs/002 area A Stream events:
 * an id, unique per event): a stream without events has nothing to judge, so it is a skip.
 */
async function eventIds(c: Ctx, events: readonly SseEvent[]): Promise<void> {
  const seen = new Set<string>();
  await c.each("CMD-STREAM-EVENT-IDS", events, "events", (e) => {
    if (e.id === undefined || e.id === "")
      return {
        message: `${e.event} event without an id`,
        expected: "every event with an id",
        actual: "no id",
      };
    if (seen.has(e.id))
      return {
        message: `${e.event} event repeats the id of an earlier event`,
        expected: "an id no earlier event of the stream carries",
        actual: `id ${quote(e.id)} among ${quote(
          events.map((x) => x.id),
          600,
        )}`,
      };
    seen.add(e.id);
    return undefined;
  });
}

const HEX = "0123456789abcdef";
const ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Ids shaped like `lastId` that the RP never sent (none of `seen`): its last run of digits
 * raised to 999999999 (an event far past any stream's end), and one character changed inside
 * its longest run of 16 or more letters and digits (another stream's random part). An RP may
 * parse its ids; each of these must still find no event to resume after.
 */
function neverSentLike(lastId: string, seen: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  const digits = /[0-9]+(?=[^0-9]*$)/.exec(lastId);
  if (digits !== null && digits[0] !== "999999999")
    out.push(`${lastId.slice(0, digits.index)}999999999${lastId.slice(digits.index + digits[0].length)}`);
  const runs = [...lastId.matchAll(/[0-9A-Za-z]{16,}/g)].sort((a, b) => b[0].length - a[0].length);
  const run = runs[0];
  if (run !== undefined) {
    const at = run.index + Math.floor(run[0].length / 2);
    const ch = lastId[at] ?? "0";
    // A hex digit stays a hex digit, so that an id of hex parts keeps its shape.
    const cycle = HEX.includes(ch) ? HEX : ALNUM;
    const other = cycle[(cycle.indexOf(ch) + 1) % cycle.length] ?? "0";
    out.push(`${lastId.slice(0, at)}${other}${lastId.slice(at + 1)}`);
  }
  return out.filter((id) => id !== lastId && !seen.includes(id));
}

/** specs/002 area A Tenant Commands with streaming (audit_tenant). */
export const streamChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.stream",
    title:
      "audit_tenant streams one account-state per account then command-complete with total_accounts, with event ids, the right headers and only an offered encoding",
    requirements: ["CMD-STREAM-HEADERS", "CMD-STREAM-EVENTS", "CMD-STREAM-EVENT-IDS", "CMD-STREAM-ENCODING"],
    timeoutMs: 60_000,
    async run(c) {
      const k = new CommandClient(c);
      const tenant = k.tenantFor("stream");
      await k.needIn(tenant, "audit_tenant", "activate");
      const made: string[] = [];
      try {
        await accounts(c, k, tenant, ACCOUNTS, made);
        const { res, events } = await auditTenant(k, tenant, { label: "audit_tenant (no Accept-Encoding)" });
        c.require("CMD-STREAM-HEADERS", res.status === 200, {
          expected: "200",
          actual: said(res),
          kind: "wrong-status",
        });
        const type = res.header("content-type") ?? "";
        const cache = res.header("cache-control") ?? "";
        const conn = res.header("connection") ?? "";
        c.check(
          "CMD-STREAM-HEADERS",
          /^text\/event-stream\s*(;|$)/i.test(type) && /no-cache/i.test(cache) && /keep-alive/i.test(conn),
          {
            expected: "Content-Type text/event-stream, Cache-Control no-cache, Connection keep-alive",
            actual: `Content-Type ${type || "(absent)"}, Cache-Control ${cache || "(absent)"}, Connection ${conn || "(absent)"}`,
            kind: type === "" || cache === "" || conn === "" ? "missing" : "wrong-value",
          },
        );
        const enc = res.header("content-encoding");
        c.check("CMD-STREAM-ENCODING", enc === undefined || enc.toLowerCase() === "identity", {
          expected: "no Content-Encoding when the request offered none",
          actual: `Content-Encoding ${enc}`,
        });
        // Other accounts of the issuer may appear (the document scopes the stream by issuer);
        // this run's accounts must each appear once, and the counts must agree.
        const found = problems(events, made);
        c.check("CMD-STREAM-EVENTS", found.length === 0, {
          expected: `each of the ${ACCOUNTS} accounts once (sub, account_state), then one command-complete last with total_accounts equal to the account-state events`,
          actual: found.join("; "),
          kind: problemsKind(events, made),
        });
        await eventIds(c, events);
        const gz = await auditTenant(k, tenant, {
          headers: { "accept-encoding": "gzip" },
          label: "audit_tenant (Accept-Encoding: gzip)",
        });
        const genc = gz.res.header("content-encoding")?.toLowerCase();
        c.check(
          "CMD-STREAM-ENCODING",
          gz.res.status === 200 &&
            (genc === undefined || genc === "gzip" || genc === "identity") &&
            gz.res.decodeError === undefined,
          {
            expected: "with Accept-Encoding gzip: gzip or no encoding, decoding cleanly",
            actual: `${gz.res.status} Content-Encoding ${genc ?? "(none)"}${gz.res.decodeError ? `: ${gz.res.decodeError}` : ""}`,
            kind:
              gz.res.status !== 200
                ? "wrong-status"
                : gz.res.decodeError !== undefined
                  ? "malformed"
                  : "wrong-value",
          },
        );
        // An encoding the request did not offer, or refused with q=0 (RFC 9110 §12.4.2), is not
        // one the OP offered.
        for (const [offer, allowed] of [
          ["br", ["br"]],
          ["gzip;q=0", []],
        ] as const) {
          const r = await auditTenant(k, tenant, {
            headers: { "accept-encoding": offer },
            stopWhen: () => true,
            label: `audit_tenant (Accept-Encoding: ${offer})`,
          });
          const e = r.res.header("content-encoding")?.toLowerCase();
          c.check(
            "CMD-STREAM-ENCODING",
            r.res.status === 200 &&
              (e === undefined || e === "identity" || (allowed as readonly string[]).includes(e)),
            {
              expected: `with Accept-Encoding ${offer}: 200 with ${["no Content-Encoding", ...allowed].join(" or ")}`,
              actual: `${r.res.status} Content-Encoding ${e ?? "(none)"}`,
              kind: r.res.status !== 200 ? "wrong-status" : "wrong-value",
            },
          );
        }
        if (found.length === 0) {
          const again = problems(gz.events, made);
          c.check("CMD-STREAM-ENCODING", again.length === 0, {
            expected: "the encoded stream decodes to a whole stream: each account once, counts agreeing",
            actual: again.join("; "),
            kind: problemsKind(gz.events, made),
          });
        }
      } finally {
        await k.remove(...made);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.stream-resume",
    title:
      "a stream dropped mid-way and resumed with Last-Event-Id loses and repeats nothing, or answers 404 last-event-id-unavailable",
    requirements: ["CMD-STREAM-RESUME"],
    timeoutMs: 60_000,
    async run(c) {
      const k = new CommandClient(c);
      const tenant = k.tenantFor("resume");
      await k.needIn(tenant, "audit_tenant", "activate");
      const made: string[] = [];
      try {
        await accounts(c, k, tenant, ACCOUNTS, made);
        const whole = await auditTenant(k, tenant, { label: "audit_tenant (whole)" });
        const broken = problems(whole.events, made);
        if (whole.res.status !== 200 || broken.length > 0)
          c.skip(
            `the whole stream is not right (${said(whole.res)}${broken.length ? `: ${broken.join("; ")}` : ""}): see CMD-STREAM-EVENTS`,
            "dependency",
          );
        // Drop the connection once two events arrived.
        const first = await auditTenant(k, tenant, {
          stopWhen: (t) => parseSse(t).length >= 2,
          label: "audit_tenant (dropped after 2 events)",
        });
        const kept = first.events.slice(0, 2);
        const lastId = kept.at(-1)?.id;
        if (kept.length < 2 || lastId === undefined || kept.some((e) => e.event !== "account-state"))
          return c.skip(
            `the stream gave ${kept.map((e) => `${e.event} ${e.id ?? "(no id)"}`).join(", ") || "nothing"} before the drop: not two account-state events with ids to resume after (see CMD-STREAM-EVENTS, CMD-STREAM-EVENT-IDS)`,
            "dependency",
          );
        // An id this RP never sent cannot be resumed from: 404 last-event-id-unavailable, not a
        // stream that silently starts over or continues another one.
        const never = `idconform-never-sent-${Math.random().toString(36).slice(2, 10)}`;
        const unknown = await auditTenant(k, tenant, {
          headers: { "last-event-id": never },
          label: "audit_tenant resumed after an id never sent",
        });
        c.check("CMD-STREAM-RESUME", isError(unknown.res, 404, "last-event-id-unavailable"), {
          expected: "Last-Event-Id the RP never sent: 404 with error last-event-id-unavailable",
          actual: `${said(unknown.res)}${unknown.events.length ? `, ${unknown.events.length} events` : ""}`,
          kind: refusalKind(unknown.res, UNAVAILABLE, false),
        });
        // Ids of the same shape as a real one, which the RP never sent either: an RP that parses
        // its ids must still find nothing to resume after, not an empty or another stream.
        const seen = [...whole.events, ...first.events].map((e) => e.id);
        for (const id of neverSentLike(lastId, seen)) {
          const like = await auditTenant(k, tenant, {
            headers: { "last-event-id": id },
            label: `audit_tenant resumed after ${id} (never sent, shaped like ${lastId})`,
          });
          c.check("CMD-STREAM-RESUME", isError(like.res, 404, "last-event-id-unavailable"), {
            expected: `Last-Event-Id ${id}, never sent (shaped like the real ${lastId}): 404 with error last-event-id-unavailable`,
            actual: `${said(like.res)}${like.events.length ? `, ${like.events.length} events` : ""}`,
            kind: refusalKind(like.res, UNAVAILABLE, false),
          });
        }
        const resumed = await auditTenant(k, tenant, {
          headers: { "last-event-id": lastId },
          label: `audit_tenant resumed after ${lastId}`,
        });
        if (resumed.res.status === 404) {
          c.check("CMD-STREAM-RESUME", body(resumed.res).error === "last-event-id-unavailable", {
            expected: "404 with error last-event-id-unavailable",
            actual: said(resumed.res),
            kind: refusalKind(resumed.res, UNAVAILABLE, false),
          });
          return;
        }
        const joinedEvents = [...kept, ...resumed.events];
        const found = problems(joinedEvents, made);
        const ids = joinedEvents.map((e) => e.id);
        if (new Set(ids).size !== ids.length) found.push("an event id came twice");
        c.check("CMD-STREAM-RESUME", resumed.res.status === 200 && found.length === 0, {
          expected: `the two parts join to one whole stream: each of the ${ACCOUNTS} accounts once, one command-complete with the right total, no event twice`,
          actual: `${said(resumed.res)}: ${found.join("; ")}; ids ${quote(ids, 600)}`,
          kind: resumed.res.status !== 200 ? "wrong-status" : problemsKind(joinedEvents, made),
        });
      } finally {
        await k.remove(...made);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.stream-empty",
    title: "audit_tenant of a tenant with no accounts streams only command-complete with total_accounts 0",
    requirements: ["CMD-STREAM-EMPTY"],
    async run(c) {
      const k = new CommandClient(c);
      const tenant = k.tenantFor("empty");
      await k.needIn(tenant, "audit_tenant");
      const { res, events } = await auditTenant(k, tenant, { label: "audit_tenant of an empty tenant" });
      if (res.status !== 200)
        c.skip(`audit_tenant answered ${said(res)}: see CMD-STREAM-HEADERS`, "dependency");
      const listed = events.filter((e) => e.event === "account-state");
      if (listed.length > 0)
        c.skip(
          `the RP lists ${listed.length} account(s) for a tenant that never had one: it scopes audit_tenant by issuer (as the document allows), so no tenant is empty`,
          "not-offered",
        );
      const only =
        events.length === 1 &&
        events[0]?.event === "command-complete" &&
        eventJson(events[0])?.total_accounts === 0;
      const complete = events.find((e) => e.event === "command-complete");
      c.check("CMD-STREAM-EMPTY", only, {
        kind:
          complete === undefined || eventJson(complete)?.total_accounts === undefined
            ? "missing"
            : "wrong-value",
        expected: "exactly one event: command-complete with total_accounts 0",
        actual:
          events
            .map((e) => `${e.event} ${e.data.slice(0, 60)}`)
            .join(" | ")
            .slice(0, 600) || "no events",
      });
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.stream-error",
    title: "an unrecoverable failure during a stream ends it with an error event carrying error_description",
    requirements: ["CMD-STREAM-ERROR-EVENT"],
    async run(c) {
      const tenant = c.profile.streamFailureTenant;
      if (tenant === undefined)
        return c.skip(
          "not declared: suites.commands.streamFailureTenant names no tenant whose stream fails",
          "not-declared",
        );
      const k = new CommandClient(c);
      await k.needIn(tenant, "audit_tenant");
      const { res, events } = await auditTenant(k, tenant, { label: "audit_tenant that fails" });
      if (res.status !== 200)
        c.skip(`audit_tenant answered ${said(res)}: see CMD-STREAM-HEADERS`, "dependency");
      const err = events.find((e) => e.event === "error");
      c.check(
        "CMD-STREAM-ERROR-EVENT",
        err !== undefined && typeof eventJson(err)?.error_description === "string",
        {
          kind:
            err === undefined || eventJson(err)?.error_description === undefined ? "missing" : "wrong-value",
          expected: "an error event with error_description",
          actual:
            events
              .map((e) => e.event)
              .join(", ")
              .slice(0, 600) || "no events",
        },
      );
    },
  }),
];
