import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { eventJson, parseSse, type SseEvent } from "../../../mocks/op/sse.js";
import type { CommandsProfile } from "../profile.js";
import { body, CommandClient, said, type SendOptions } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

const STREAM_HEADERS = { accept: "text/event-stream", "cache-control": "no-cache" };
const ACCOUNTS = 3;

/** Sends audit_tenant for `tenant` as a Streaming Request and parses what arrives. */
async function auditTenant(
  k: CommandClient,
  tenant: string,
  o: SendOptions = {},
): Promise<{ res: HttpResponse; events: SseEvent[] }> {
  const { res } = await k.send("audit_tenant", {
    tenant,
    decode: true,
    ...o,
    headers: { ...STREAM_HEADERS, ...o.headers },
    label: o.label ?? `audit_tenant ${tenant.slice(k.tag.length)}`,
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

/** Activates `n` accounts in `tenant`; skips when that fails. */
async function accounts(c: Ctx, k: CommandClient, tenant: string, n: number): Promise<string[]> {
  const subs: string[] = [];
  for (let i = 0; i < n; i++) {
    const sub = k.sub("stream");
    const res = await k.account("activate", sub, { tenant });
    if (res.status !== 200 && res.status !== 204)
      c.skip(`activate answered ${said(res)}: see CMD-ACTIVATE`, "dependency");
    subs.push(sub);
  }
  return subs;
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
      await k.need("audit_tenant", "activate");
      const tenant = k.tenantFor("stream");
      const made = await accounts(c, k, tenant, ACCOUNTS);
      try {
        const { res, events } = await auditTenant(k, tenant, { label: "audit_tenant (no Accept-Encoding)" });
        c.require("CMD-STREAM-HEADERS", res.status === 200, { expected: "200", actual: said(res) });
        const type = res.header("content-type") ?? "";
        const cache = res.header("cache-control") ?? "";
        const conn = res.header("connection") ?? "";
        c.check(
          "CMD-STREAM-HEADERS",
          /^text\/event-stream\s*(;|$)/i.test(type) && /no-cache/i.test(cache) && /keep-alive/i.test(conn),
          {
            expected: "Content-Type text/event-stream, Cache-Control no-cache, Connection keep-alive",
            actual: `Content-Type ${type || "(absent)"}, Cache-Control ${cache || "(absent)"}, Connection ${conn || "(absent)"}`,
          },
        );
        const enc = res.header("content-encoding");
        c.check("CMD-STREAM-ENCODING", enc === undefined || enc.toLowerCase() === "identity", {
          expected: "no Content-Encoding when the request offered none",
          actual: `Content-Encoding ${enc}`,
        });
        const s = summary(events);
        const mine = made
          .map((sub) => `${sub}: ${s.subs.filter((x) => x === sub).length}`)
          .filter((x) => !x.endsWith(": 1"));
        const total = s.complete?.total_accounts;
        const states = events
          .filter((e) => e.event === "account-state")
          .filter((e) => typeof eventJson(e)?.account_state !== "string");
        c.check(
          "CMD-STREAM-EVENTS",
          mine.length === 0 &&
            new Set(s.subs).size === s.subs.length &&
            states.length === 0 &&
            s.complete !== undefined &&
            total === s.subs.length &&
            s.last === "command-complete",
          {
            expected: `each of the ${ACCOUNTS} accounts once (sub, account_state), then one command-complete last with total_accounts equal to the account-state events`,
            actual: `${s.subs.length} account-state events${mine.length ? ` (not once: ${mine.join(", ")})` : ""}${states.length ? `, ${states.length} without account_state` : ""}; command-complete ${s.complete === undefined ? "missing or repeated" : `total_accounts ${JSON.stringify(total ?? null)}`}; last event ${s.last ?? "none"}`,
          },
        );
        const ids = events.map((e) => e.id);
        c.check(
          "CMD-STREAM-EVENT-IDS",
          ids.every((x) => x !== undefined && x !== "") && new Set(ids).size === ids.length,
          {
            expected: "every event with an id, none repeated",
            actual: `ids ${JSON.stringify(ids)}`,
          },
        );
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
          },
        );
        const again = summary(gz.events);
        c.check(
          "CMD-STREAM-ENCODING",
          JSON.stringify([...again.subs].sort()) === JSON.stringify([...s.subs].sort()) &&
            again.complete?.total_accounts === total,
          {
            expected: "the encoded stream decodes to the same events",
            actual: `${again.subs.length} account-state events, total_accounts ${JSON.stringify(again.complete?.total_accounts ?? null)}`,
          },
        );
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
      await k.need("audit_tenant", "activate");
      const tenant = k.tenantFor("resume");
      const made = await accounts(c, k, tenant, ACCOUNTS);
      try {
        const full = summary((await auditTenant(k, tenant, { label: "audit_tenant (whole)" })).events);
        if (full.complete === undefined)
          c.skip("the whole stream has no single command-complete: see CMD-STREAM-EVENTS", "dependency");
        // Drop the connection once two events arrived.
        const first = await auditTenant(k, tenant, {
          stopWhen: (t) => parseSse(t).length >= 2,
          label: "audit_tenant (dropped after 2 events)",
        });
        const kept = first.events.slice(0, 2);
        const lastId = kept.at(-1)?.id;
        if (kept.length < 2 || lastId === undefined)
          return c.skip(
            `the stream gave ${kept.length} event(s) before the drop, without an id to resume from: see CMD-STREAM-EVENT-IDS`,
            "dependency",
          );
        const resumed = await auditTenant(k, tenant, {
          headers: { "last-event-id": lastId },
          label: `audit_tenant resumed after ${lastId}`,
        });
        if (resumed.res.status === 404) {
          c.check("CMD-STREAM-RESUME", body(resumed.res).error === "last-event-id-unavailable", {
            expected: "404 with error last-event-id-unavailable",
            actual: said(resumed.res),
          });
          return;
        }
        const joined = summary([...kept, ...resumed.events]);
        const ids = [...kept, ...resumed.events].map((e) => e.id);
        c.check(
          "CMD-STREAM-RESUME",
          resumed.res.status === 200 &&
            JSON.stringify([...joined.subs].sort()) === JSON.stringify([...full.subs].sort()) &&
            joined.complete !== undefined &&
            new Set(ids).size === ids.length,
          {
            expected: `the two parts join to the whole stream: ${full.subs.length} account-state events once each, one command-complete, no event twice`,
            actual: `${said(resumed.res)}: joined ${joined.subs.length} account-state events, command-complete ${joined.complete === undefined ? "missing or repeated" : "once"}, ids ${JSON.stringify(ids)}`,
          },
        );
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
      await k.need("audit_tenant");
      const { res, events } = await auditTenant(k, k.tenantFor("empty"), {
        label: "audit_tenant of an empty tenant",
      });
      if (res.status !== 200)
        c.skip(`audit_tenant answered ${said(res)}: see CMD-STREAM-HEADERS`, "dependency");
      const foreign = events.filter(
        (e) => e.event === "account-state" && !String(eventJson(e)?.sub ?? "").startsWith(k.tag),
      );
      if (foreign.length > 0)
        c.skip(
          `the RP lists ${foreign.length} account(s) this run did not make for a tenant it never used: it scopes audit_tenant by issuer only, so no tenant is empty`,
          "other",
        );
      const only =
        events.length === 1 &&
        events[0]?.event === "command-complete" &&
        eventJson(events[0])?.total_accounts === 0;
      c.check("CMD-STREAM-EMPTY", only, {
        expected: "exactly one event: command-complete with total_accounts 0",
        actual: events.map((e) => `${e.event} ${e.data.slice(0, 60)}`).join(" | ") || "no events",
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
      await k.need("audit_tenant");
      const { res, events } = await auditTenant(k, tenant, { label: "audit_tenant that fails" });
      if (res.status !== 200)
        c.skip(`audit_tenant answered ${said(res)}: see CMD-STREAM-HEADERS`, "dependency");
      const err = events.find((e) => e.event === "error");
      c.check(
        "CMD-STREAM-ERROR-EVENT",
        err !== undefined && typeof eventJson(err)?.error_description === "string",
        {
          expected: "an error event with error_description",
          actual: events.map((e) => e.event).join(", ") || "no events",
        },
      );
    },
  }),
];
