import { randomUUID } from "node:crypto";
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { MockLogEntry } from "../../../src/http/mock-control.js";
import { notificationToken } from "../../../mocks/op/index.js";
import type { CommandsProfile } from "../profile.js";
import { accountClaims, body, CommandClient, isError, refusalKind, said, stateOf } from "../client.js";
import { TABLE, type State } from "../model/account-commands.js";

type Ctx = CheckContext<CommandsProfile>;

/** An asynchronous command to exercise: what to do first, and the state it should end in. */
interface AsyncPlan {
  readonly command: string;
  /** Synchronous commands that bring the account to the command's precondition. */
  readonly prepare: readonly string[];
  /** The steady state after the preparation, to which a failure must return. */
  readonly before: string;
  readonly final: string;
  readonly pending: string;
}

const PLANS: readonly AsyncPlan[] = [
  {
    command: "suspend_async",
    prepare: ["activate"],
    before: "active",
    final: "suspended",
    pending: "suspend_pending",
  },
  {
    command: "maintain_async",
    prepare: ["activate"],
    before: "active",
    final: "active",
    pending: "maintain_pending",
  },
  { command: "activate_async", prepare: [], before: "unknown", final: "active", pending: "activate_pending" },
  {
    command: "archive_async",
    prepare: ["activate"],
    before: "active",
    final: "archived",
    pending: "archive_pending",
  },
  {
    command: "delete_async",
    prepare: ["activate"],
    before: "active",
    final: "unknown",
    pending: "delete_pending",
  },
  {
    command: "reactivate_async",
    prepare: ["activate", "suspend"],
    before: "suspended",
    final: "active",
    pending: "reactivate_pending",
  },
  {
    command: "restore_async",
    prepare: ["activate", "archive"],
    before: "archived",
    final: "active",
    pending: "restore_pending",
  },
];

/** The first asynchronous command the RP offers whose preparation it also offers; skips when none. */
export async function plan(c: Ctx, k: CommandClient, tenant: string): Promise<AsyncPlan> {
  const list = await k.supported(tenant);
  const p = PLANS.find((x) => list.includes(x.command) && x.prepare.every((y) => list.includes(y)));
  return p ?? c.skip("not offered: commands_supported has no asynchronous (_async) command", "not-offered");
}

/** Sends the metadata command for `tenant` naming `slot`; returns the RP's jwks_uri, skipping when it fails. */
export async function exchange(
  c: Ctx,
  k: CommandClient,
  tenant: string,
  slot: string,
): Promise<string | undefined> {
  const res = await k.metadata(tenant, slot, {}, { label: `metadata (notification_endpoint ${slot})` });
  if (res.status !== 200)
    c.skip(`the metadata command answered ${said(res)}: see CMD-METADATA-SUPPORTED`, "dependency");
  const uri = body(res).jwks_uri;
  return typeof uri === "string" ? uri : undefined;
}

/** Prepares an account in `tenant` for `p` (skipping when that fails) and returns its sub. */
export async function prepared(
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
      claims = quote(decodeJwt(token));
    } catch {
      claims = "(not a JWT)";
    }
    return {
      problem: `the Notification Token does not verify with the keys at jwks_uri: ${(err as Error).message} (claims ${claims})`,
    };
  }
}

/** Audits until the state leaves its pending form, bounded by `ms` (a slow RP is waited for, politely). */
export async function settled(k: CommandClient, sub: string, tenant: string, ms: number): Promise<unknown> {
  const until = Date.now() + ms;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    const state = stateOf(await k.account("audit", sub, { tenant, label: "audit (settled?)" }));
    if (typeof state !== "string" || !state.endsWith("_pending") || Date.now() + wait > until) return state;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/**
 * Whether a Notification Token's claims name the account `sub` (whose aud_sub the RP
 * answered as `audSub`, if it did): by sub or by that aud_sub, and naming no other account
 * with the other (specs/002 area A account resolution: aud_sub is the RP's identifier of
 * this account, so another account's aud_sub makes the result someone else's).
 */
function names(claims: Record<string, unknown>, sub: string, audSub: string | undefined): boolean {
  const bySub = claims.sub === sub;
  const byAudSub = audSub !== undefined && claims.aud_sub === audSub;
  const otherSub = claims.sub !== undefined && claims.sub !== sub;
  const otherAudSub = audSub !== undefined && claims.aud_sub !== undefined && claims.aud_sub !== audSub;
  return (bySub || byAudSub) && !otherSub && !otherAudSub;
}

/** Every asynchronous command the RP offers whose preparation it also offers; skips when none. */
async function plans(c: Ctx, k: CommandClient, tenant: string): Promise<AsyncPlan[]> {
  const list = await k.supported(tenant);
  const ps = PLANS.filter((x) => list.includes(x.command) && x.prepare.every((y) => list.includes(y)));
  return ps.length > 0
    ? ps
    : c.skip("not offered: commands_supported has no asynchronous (_async) command", "not-offered");
}

/**
 * Whether the state table refuses `p`'s command both in its pending state and in its final
 * state: then a repeat sent while it runs must answer 409, however soon it completes (every
 * command but maintain_async, which active allows again).
 */
const repeatRefused = (p: AsyncPlan): boolean => {
  const base = p.command.slice(0, -"_async".length);
  return TABLE[base]?.[p.final as State] === undefined;
};

/** The state-table requirement of each asynchronous command's synchronous form. */
const ROW: Record<string, string> = {
  activate_async: "CMD-ACTIVATE",
  maintain_async: "CMD-MAINTAIN",
  suspend_async: "CMD-SUSPEND",
  reactivate_async: "CMD-REACTIVATE",
  archive_async: "CMD-ARCHIVE",
  restore_async: "CMD-RESTORE",
  delete_async: "CMD-DELETE",
};

/** What commands.async decides: the asynchronous requirements, and the rows it runs again. */
const ASYNC_REQUIREMENTS = [
  "CMD-ASYNC-ACCEPTED",
  "CMD-ASYNC-PENDING",
  "CMD-ASYNC-NOTIFIED",
  "CMD-INCOMPATIBLE-STATE",
  ...Object.values(ROW),
];

/** What commands.async shares across its plans: the notification slot, and what it decided. */
interface Run {
  readonly tenant: string;
  readonly slot: string;
  readonly jwksUri: string | undefined;
  readonly audit: boolean;
  /** Notifications at the slot already read by earlier plans. */
  read: number;
  readonly decided: Set<string>;
}

function judge(c: Ctx, run: Run, id: string, ok: boolean, details: Parameters<Ctx["check"]>[2]): boolean {
  run.decided.add(id);
  return c.check(id, ok, details);
}

/**
 * One asynchronous command end to end: 202, its pending state in audit (and, in that state, a
 * repeat of it refused with 409), its final result in a verified Notification Token naming the
 * account, the state table's final state in it, and that state read back.
 */
async function exercise(c: Ctx, k: CommandClient, p: AsyncPlan, run: Run): Promise<void> {
  const { tenant, slot } = run;
  const a = await prepared(c, k, p, tenant, "async");
  try {
    const res = await k.account(p.command, a, { tenant });
    if (
      !judge(c, run, "CMD-ASYNC-ACCEPTED", res.status === 202, {
        expected: `${p.command}: 202 Accepted`,
        actual: said(res),
        // A 200 too: the document asks for 202, not any 2xx.
        kind: "wrong-status",
      })
    )
      return;
    // The account's aud_sub as the RP answered it (if it did): a notification naming
    // another account's aud_sub is not this command's result.
    const audSub = k.audSubOf(a);
    if (run.audit) {
      const during = stateOf(await k.account("audit", a, { tenant, label: "audit right after 202" }));
      judge(c, run, "CMD-ASYNC-PENDING", during === p.pending || during === p.final, {
        expected: `audit while ${p.command} runs: ${p.pending} (or already ${p.final})`,
        actual: String(during),
      });
      // Seen pending, the account is in p.pending or (completed since) in its final state;
      // the state table allows the command in neither, so the repeat is an incompatible state.
      if (during === p.pending && repeatRefused(p)) {
        const again = await k.account(p.command, a, { tenant, label: `${p.command} again while it runs` });
        judge(c, run, "CMD-INCOMPATIBLE-STATE", isError(again, 409, "incompatible_state"), {
          expected: `${p.command} repeated while the account is ${p.pending}: 409 incompatible_state`,
          actual: said(again),
          res: again,
          kind: refusalKind(again, [[409, "incompatible_state"]]),
        });
      }
    }
    // The RP may notify other state changes too: every arrival is read until one carries
    // this command's final result, or the time is up. A verified token naming the account
    // with another steady state is kept: if none brings the final state, it is the result.
    const deadline = Date.now() + c.profile.notificationTimeoutMs;
    const seen: string[] = [];
    // A token came that does not verify: a notification was there, but not an acceptable one.
    let unverified = false;
    let match: Record<string, unknown> | undefined;
    let other: Record<string, unknown> | undefined;
    for (let n = run.read + 1; n <= run.read + 20 && match === undefined; n++) {
      const got = await k.mock().wait(`/notifications/${slot}`, n, Math.max(0, deadline - Date.now()));
      const entry = got[n - 1];
      if (entry === undefined) break;
      const token = notificationToken(entry);
      if (token === undefined) {
        seen.push(
          `a request without a token (${entry.headers["content-type"] ?? "no Content-Type"}: ${entry.body.slice(0, 80)})`,
        );
        continue;
      }
      const v = await verify(c, token, run.jwksUri);
      if (v.claims === undefined) {
        // Without a jwks_uri no token can verify: what is missing is the key set, not a good token.
        if (run.jwksUri !== undefined) unverified = true;
        seen.push(v.problem ?? "a token that does not verify");
        continue;
      }
      const claims = v.claims;
      const state = claims.account_state;
      if (names(claims, a, audSub) && state === p.final) match = claims;
      else {
        if (names(claims, a, audSub) && typeof state === "string" && !state.endsWith("_pending"))
          other = claims;
        seen.push(
          `a verified token with sub ${quote(claims.sub)}, aud_sub ${quote(claims.aud_sub)}, account_state ${quote(state)}, error ${quote(claims.error)}`,
        );
      }
    }
    run.read = (await k.mock().wait(`/notifications/${slot}`, 0, 0)).length;
    const result = match ?? other;
    judge(c, run, "CMD-ASYNC-NOTIFIED", result !== undefined, {
      expected: `${p.command}: within ${c.profile.notificationTimeoutMs} ms, at ${k.notificationEndpoint(slot)}: a Notification Token signed with a key of the RP's jwks_uri carrying sub ${a}${audSub !== undefined ? ` (or aud_sub ${audSub}; no other aud_sub)` : ""} and its final account_state`,
      actual:
        seen.length > 0
          ? seen.join("; ").slice(0, 1500)
          : `nothing arrived (can the RP reach ${k.notificationEndpoint(slot)}? see suites.commands.op.publicUrl)`,
      // Nothing, requests without a token, or tokens about something else: the notification is missing.
      kind: unverified ? "wrong-value" : "missing",
    });
    if (result === undefined) return;
    const row = ROW[p.command];
    if (row !== undefined)
      judge(c, run, row, result.account_state === p.final, {
        expected: `${p.command} completes as its row of the state table: account_state ${p.final}`,
        actual: `the Notification Token reports account_state ${quote(result.account_state)}`,
      });
    // The notification reports the final response: the account must be in that state
    // when read back, not merely said to be (a slow store is waited for, bounded).
    if (!run.audit) {
      c.note(`the notified state of ${p.command} not read back: commands_supported lacks audit`);
      return;
    }
    const after = await settled(k, a, tenant, c.profile.notificationTimeoutMs);
    judge(c, run, "CMD-ASYNC-NOTIFIED", after === result.account_state, {
      expected: `audit after the Notification Token of ${p.command}: account_state ${quote(result.account_state)}, the final state it reported`,
      actual: `account_state ${quote(after ?? null)}`,
    });
  } finally {
    await settled(k, a, tenant, c.profile.notificationTimeoutMs);
    await k.remove(a);
  }
}

const describeEntries = (es: readonly MockLogEntry[]): string => es.map((e) => e.path).join(", ") || "none";

/**
 * Sends `run.plan`'s command for the prepared account and judges CMD-METADATA-REPLACES on where
 * its notification went: only to the mock OP slot `<id>-<only>`, of the notification endpoints
 * `<id>-*` that metadata commands named. Waits a moment past the first delivery, so that a late
 * one to another of those endpoints is seen too.
 */
export async function notifiedOnlyAt(
  c: Ctx,
  k: CommandClient,
  run: { plan: AsyncPlan; sub: string; tenant: string; id: string; only: string },
  expected: string,
): Promise<void> {
  const { plan: p, sub, tenant, id, only } = run;
  const res = await k.account(p.command, sub, { tenant });
  if (res.status !== 202)
    c.skip(`${p.command} answered ${said(res)}, not 202: see CMD-ASYNC-ACCEPTED`, "dependency");
  const got = await k.mock().wait(`/notifications/${id}-`, 1, c.profile.notificationTimeoutMs);
  if (got.length === 0)
    c.skip("no notification reached either endpoint: see CMD-ASYNC-NOTIFIED", "dependency");
  const all = await k.mock().wait(`/notifications/${id}-`, got.length + 1, 300);
  c.check(
    "CMD-METADATA-REPLACES",
    all.every((e) => e.path.endsWith(`${id}-${only}`)),
    {
      expected,
      actual: `received at ${describeEntries(all)}`,
    },
  );
}

/** specs/002 area A: asynchronous commands, pending states and Notification Tokens. */
export const asyncChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.async",
    title:
      "every _async command the RP offers answers 202, shows its pending state in audit (refusing itself meanwhile), and its final result, the state table's, reaches the notification endpoint in a Notification Token signed by the RP",
    requirements: ASYNC_REQUIREMENTS,
    timeoutMs: 120_000,
    async run(c) {
      const k = new CommandClient(c);
      const tenant = k.tenantFor("async");
      const list = await plans(c, k, tenant);
      const audit = (await k.supported(tenant)).includes("audit");
      const slot = `async-${randomUUID()}`;
      const jwksUri = await exchange(c, k, tenant, slot);
      const run: Run = { tenant, slot, jwksUri, audit, read: 0, decided: new Set() };
      // Every asynchronous command the RP offers, one after the other: each has its own
      // pending state, final state and completion (an RP may get one right and another wrong).
      for (const p of list) await exercise(c, k, p, run);
      const reasons: Record<string, string> = {
        "CMD-ASYNC-PENDING": audit
          ? "no asynchronous command was accepted"
          : "not offered: commands_supported lacks audit",
        "CMD-ASYNC-NOTIFIED": "no asynchronous command was accepted",
        "CMD-INCOMPATIBLE-STATE":
          "no asynchronous command was seen pending that its final state refuses too (needs audit, and a command other than maintain_async)",
      };
      for (const id of ASYNC_REQUIREMENTS)
        if (!run.decided.has(id))
          c.skipOnly(
            id,
            reasons[id] ?? `not offered: commands_supported has no ${id.slice(4).toLowerCase()}_async`,
            id in reasons ? "dependency" : "not-offered",
          );
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
          "needs-hook",
        );
      const k = new CommandClient(c);
      const tenant = k.tenantFor("failure");
      const p = PLANS.find((x) => x.command === f.command);
      if (p === undefined) return c.skip(`no plan for ${f.command}`, "other");
      await k.needIn(tenant, f.command, "audit", ...p.prepare);
      const before = p.before;
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
        // A failed maintain_async leaves "active" as it was, so the state alone cannot show the
        // failure: the account returns to its last steady state as it was, the claims the
        // failed maintain carried not applied (they are the transition's additional effect).
        if (f.command === "maintain_async" && state === before) {
          const kept = body(
            await k.account("audit", a, { tenant, label: "audit after the failed maintain" }),
          );
          const applied = c.profile.retainedClaims.filter(
            (name) =>
              f.claims[name] !== undefined &&
              quote(f.claims[name], 10_000) !== quote(accountClaims(a)[name], 10_000) &&
              quote(kept[name], 10_000) === quote(f.claims[name], 10_000),
          );
          c.check("CMD-ASYNC-FAILURE", applied.length === 0, {
            expected: "after the failed maintain_async: none of the claims it carried applied",
            actual: applied
              .map((n) => `${n}: ${quote(kept[n] ?? null)}, as the failed maintain_async sent it`)
              .join("; "),
          });
        }
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
      const tenant = k.tenantFor("replace");
      const p = await plan(c, k, tenant);
      const id = `replace-${randomUUID()}`;
      await exchange(c, k, tenant, `${id}-first`);
      await exchange(c, k, tenant, `${id}-second`);
      const a = await prepared(c, k, p, tenant, "replace");
      try {
        await notifiedOnlyAt(
          c,
          k,
          { plan: p, sub: a, tenant, id, only: "second" },
          "notifications only at the notification_endpoint of the latest metadata",
        );
      } finally {
        await settled(k, a, tenant, c.profile.notificationTimeoutMs);
        await k.remove(a);
      }
    },
  }),
];
