import { randomUUID } from "node:crypto";
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import type { MockLogEntry } from "../../../src/http/mock-control.js";
import { notificationToken } from "../../../mocks/op/index.js";
import type { CommandsProfile } from "../profile.js";
import { body, CommandClient, said, stateOf } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

/** An asynchronous command to exercise: what to do first, and the state it should end in. */
interface AsyncPlan {
  readonly command: string;
  /** Synchronous commands that bring the account to the command's precondition. */
  readonly prepare: readonly string[];
  readonly final: string;
  readonly pending: string;
}

const PLANS: readonly AsyncPlan[] = [
  { command: "suspend_async", prepare: ["activate"], final: "suspended", pending: "suspend_pending" },
  { command: "maintain_async", prepare: ["activate"], final: "active", pending: "maintain_pending" },
  { command: "activate_async", prepare: [], final: "active", pending: "activate_pending" },
  { command: "archive_async", prepare: ["activate"], final: "archived", pending: "archive_pending" },
];

/** The first asynchronous command the RP offers whose preparation it also offers; skips when none. */
async function plan(c: Ctx, k: CommandClient): Promise<AsyncPlan> {
  const list = await k.supported();
  const p = PLANS.find((x) => list.includes(x.command) && x.prepare.every((y) => list.includes(y)));
  return p ?? c.skip("not offered: commands_supported has no asynchronous (_async) command", "not-offered");
}

/** Sends the metadata command for `tenant` naming `slot`; returns the RP's jwks_uri, skipping when it fails. */
async function exchange(c: Ctx, k: CommandClient, tenant: string, slot: string): Promise<string | undefined> {
  const res = await k.metadata(tenant, slot, {}, { label: `metadata (notification_endpoint ${slot})` });
  if (res.status !== 200)
    c.skip(`the metadata command answered ${said(res)}: see CMD-METADATA-SUPPORTED`, "dependency");
  const uri = body(res).jwks_uri;
  return typeof uri === "string" ? uri : undefined;
}

/** Prepares an account in `tenant` for `p` (skipping when that fails) and returns its sub. */
async function prepared(
  c: Ctx,
  k: CommandClient,
  p: AsyncPlan,
  tenant: string,
  what: string,
): Promise<string> {
  const a = k.sub(what);
  for (const cmd of p.prepare) {
    const res = await k.account(cmd, a, { tenant });
    if (res.status !== 200 && res.status !== 204)
      c.skip(`${cmd} answered ${said(res)}: see the state table requirements`, "dependency");
  }
  return a;
}

/**
 * Verifies a Notification Token: signed with a key of the RP's jwks_uri (fetched through the
 * recording client, so it is evidence). Returns its claims, or why it is not acceptable.
 */
async function verify(
  c: Ctx,
  token: string,
  jwksUri: string | undefined,
): Promise<{ claims?: Record<string, unknown>; problem?: string }> {
  if (jwksUri === undefined)
    return { problem: "the Metadata Response gives no jwks_uri to verify Notification Tokens with" };
  const res = await c.http.get(jwksUri, { label: "RP jwks_uri" });
  const set = res.json as JSONWebKeySet | undefined;
  if (res.status !== 200 || !Array.isArray(set?.keys))
    return { problem: `jwks_uri answered ${res.status} without a JWK Set` };
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(set), { clockTolerance: 60 });
    return { claims: payload as Record<string, unknown> };
  } catch (err) {
    let claims = "";
    try {
      claims = JSON.stringify(decodeJwt(token)).slice(0, 200);
    } catch {
      claims = "(not a JWT)";
    }
    return {
      problem: `the Notification Token does not verify with the keys at jwks_uri: ${(err as Error).message} (claims ${claims})`,
    };
  }
}

/** Audits until the state leaves its pending form, bounded by `ms` (a slow RP is waited for, politely). */
async function settled(k: CommandClient, sub: string, tenant: string, ms: number): Promise<unknown> {
  const until = Date.now() + ms;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    const state = stateOf(await k.account("audit", sub, { tenant, label: "audit (settled?)" }));
    if (typeof state !== "string" || !state.endsWith("_pending") || Date.now() + wait > until) return state;
    await new Promise((r) => setTimeout(r, wait));
  }
}

const describeEntries = (es: readonly MockLogEntry[]): string => es.map((e) => e.path).join(", ") || "none";

/** specs/002 area A: asynchronous commands, pending states and Notification Tokens. */
export const asyncChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.async",
    title:
      "an _async command answers 202, shows its pending state in audit, and its final result reaches the notification endpoint in a Notification Token signed by the RP",
    requirements: ["CMD-ASYNC-ACCEPTED", "CMD-ASYNC-PENDING", "CMD-ASYNC-NOTIFIED"],
    timeoutMs: 60_000,
    async run(c) {
      const k = new CommandClient(c);
      const p = await plan(c, k);
      const tenant = k.tenantFor("async");
      const slot = `async-${randomUUID()}`;
      const jwksUri = await exchange(c, k, tenant, slot);
      const a = await prepared(c, k, p, tenant, "async");
      try {
        const res = await k.account(p.command, a, { tenant });
        c.require("CMD-ASYNC-ACCEPTED", res.status === 202, {
          expected: `${p.command}: 202 Accepted`,
          actual: said(res),
        });
        if ((await k.supported()).includes("audit")) {
          const during = stateOf(await k.account("audit", a, { tenant, label: "audit right after 202" }));
          c.check("CMD-ASYNC-PENDING", during === p.pending || during === p.final, {
            expected: `audit while it runs: ${p.pending} (or already ${p.final})`,
            actual: String(during),
          });
        }
        const got = await k.mock().wait(`/notifications/${slot}`, 1, c.profile.notificationTimeoutMs);
        const token = got[0] ? notificationToken(got[0]) : undefined;
        c.require("CMD-ASYNC-NOTIFIED", token !== undefined, {
          expected: `a Notification Token at ${k.notificationEndpoint(slot)} within ${c.profile.notificationTimeoutMs} ms`,
          actual: got[0]
            ? `a request without a token: ${got[0].headers["content-type"] ?? ""} ${got[0].body.slice(0, 120)}`
            : "nothing arrived",
        });
        const v = await verify(c, token ?? "", jwksUri);
        c.require("CMD-ASYNC-NOTIFIED", v.claims !== undefined, {
          expected: "a Notification Token signed with a key of the RP's jwks_uri",
          actual: v.problem ?? "",
        });
        const claims = v.claims ?? {};
        c.check(
          "CMD-ASYNC-NOTIFIED",
          (claims.sub === a || claims.aud_sub !== undefined) && claims.account_state === p.final,
          {
            expected: `the final result: sub ${a}, account_state ${p.final}`,
            actual: JSON.stringify({
              sub: claims.sub,
              account_state: claims.account_state,
              error: claims.error,
            }),
          },
        );
      } finally {
        await settled(k, a, tenant, c.profile.notificationTimeoutMs);
        await k.remove(a);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.async-failure",
    title: "a failed _async command leaves the account in its last steady state",
    requirements: ["CMD-ASYNC-FAILURE"],
    timeoutMs: 60_000,
    async run(c) {
      const f = c.profile.asyncFailure;
      if (f === undefined)
        return c.skip(
          "not declared: suites.commands.asyncFailure names no way to make an asynchronous command fail",
          "not-declared",
        );
      const k = new CommandClient(c);
      await k.need(f.command);
      const p = PLANS.find((x) => x.command === f.command) ?? {
        command: f.command,
        prepare: f.command === "activate_async" ? [] : ["activate"],
        final: "",
        pending: "",
      };
      const before = p.prepare.length === 0 ? "unknown" : "active";
      const tenant = k.tenantFor("failure");
      const slot = `failure-${randomUUID()}`;
      await exchange(c, k, tenant, slot);
      const a = await prepared(c, k, p, tenant, "failure");
      try {
        const res = await k.account(f.command, a, {
          tenant,
          claims: f.claims,
          label: `${f.command} that fails`,
        });
        if (res.status !== 202)
          c.skip(`${f.command} answered ${said(res)}, not 202: see CMD-ASYNC-ACCEPTED`, "dependency");
        await k.mock().wait(`/notifications/${slot}`, 1, c.profile.notificationTimeoutMs);
        const state = await settled(k, a, tenant, c.profile.notificationTimeoutMs);
        c.check("CMD-ASYNC-FAILURE", state === before, {
          expected: `after the failure: account_state ${before}`,
          actual: String(state),
        });
      } finally {
        await k.remove(a);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.metadata-replaces",
    title:
      "a later metadata command replaces the earlier one: notifications go to the newest notification_endpoint only",
    requirements: ["CMD-METADATA-REPLACES"],
    timeoutMs: 60_000,
    async run(c) {
      const k = new CommandClient(c);
      const p = await plan(c, k);
      const tenant = k.tenantFor("replace");
      const id = `replace-${randomUUID()}`;
      await exchange(c, k, tenant, `${id}-first`);
      await exchange(c, k, tenant, `${id}-second`);
      const a = await prepared(c, k, p, tenant, "replace");
      try {
        const res = await k.account(p.command, a, { tenant });
        if (res.status !== 202)
          c.skip(`${p.command} answered ${said(res)}, not 202: see CMD-ASYNC-ACCEPTED`, "dependency");
        const got = await k.mock().wait(`/notifications/${id}-`, 1, c.profile.notificationTimeoutMs);
        if (got.length === 0)
          c.skip("no notification reached either endpoint: see CMD-ASYNC-NOTIFIED", "dependency");
        const all = await k.mock().wait(`/notifications/${id}-`, 99, 0);
        c.check(
          "CMD-METADATA-REPLACES",
          all.every((e) => e.path.endsWith(`${id}-second`)),
          {
            expected: "notifications only at the notification_endpoint of the latest metadata",
            actual: `received at ${describeEntries(all)}`,
          },
        );
      } finally {
        await settled(k, a, tenant, c.profile.notificationTimeoutMs);
        await k.remove(a);
      }
    },
  }),
];
