import type { CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { CommandsProfile } from "../profile.js";
import { body, type CommandClient, isError, refusalKind, said } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

/** Checks a 409 incompatible_state with the current state and sub. */
function incompatible(c: Ctx, what: string, res: HttpResponse, sub: string, state: string): void {
  const b = body(res);
  const refused = isError(res, 409, "incompatible_state");
  c.check("CMD-INCOMPATIBLE-STATE", refused && b.account_state === state && b.sub === sub, {
    expected: `${what}: 409 incompatible_state, account_state ${state}, sub ${sub}`,
    actual: `${said(res)}${b.sub !== sub ? ` sub ${quote(b.sub ?? null)}` : ""}`,
    res,
    // A 2xx carried out a command its state forbids; a 409 of another error is the wrong code.
    kind: !refused
      ? refusalKind(res, [[409, "incompatible_state"]])
      : b.account_state === undefined || b.sub === undefined
        ? "missing"
        : "wrong-value",
  });
}

/** What audit shows of an account: its state and each retained claim (as a bounded rendering). */
interface Snapshot {
  readonly ok: boolean;
  readonly state: unknown;
  readonly claims: Readonly<Record<string, string>>;
  readonly res: HttpResponse;
}

async function snapshot(c: Ctx, k: CommandClient, sub: string, label: string): Promise<Snapshot> {
  const res = await k.account("audit", sub, { label });
  const b = body(res);
  return {
    ok: res.status === 200,
    state: b.account_state,
    // Bounded renderings: equal renderings of values this small are equal values.
    claims: Object.fromEntries(c.profile.retainedClaims.map((n) => [n, quote(b[n] ?? null, 10_000)])),
    res,
  };
}

/** How `after` differs from `before`: the state, then each retained claim; empty when equal. */
function changes(before: Snapshot, after: Snapshot): string[] {
  if (!after.ok) return [`audit answered ${said(after.res)}`];
  const out = after.state === before.state ? [] : [`account_state ${quote(after.state ?? null)}`];
  for (const [n, was] of Object.entries(before.claims))
    if (after.claims[n] !== was) out.push(`${n} ${after.claims[n] ?? "(absent)"} (was ${was})`);
  return out;
}

/**
 * Claims a refused activate or maintain carries: unlike the account's and unlike those of any
 * other refusal, so that applying any one of them shows in the next audit.
 */
const refusedClaims = (sub: string, cmd: string, state: string): Record<string, unknown> => ({
  given_name: `Refused ${cmd} ${state}`,
  family_name: "Refused",
  email: `refused-${cmd}-${state}-${sub}@example.test`,
});

/**
 * Sends each of `commands` to an account in `state` and decides CMD-INCOMPATIBLE-STATE: 409
 * incompatible_state with that state and the sub (specs/002 area A Endpoints, Incompatible
 * state response), and, read back through audit after each refusal, the same state and
 * retained claims as before it (States: a command whose precondition fails is not performed,
 * so neither its transition nor the claims it carries may take effect).
 */
export async function refusals(
  c: Ctx,
  k: CommandClient,
  o: {
    sub: string;
    state: string;
    commands: readonly string[];
    what: string;
    readable: boolean;
  },
): Promise<void> {
  const { sub, state } = o;
  let before = o.readable ? await snapshot(c, k, sub, `audit (${state}, before the refusals)`) : undefined;
  // An audit that does not answer leaves nothing to compare with (see CMD-AUDIT-STATE).
  if (before !== undefined && !before.ok)
    c.note(`refusals of ${o.what} not read back: audit answered ${said(before.res)}`);
  for (const cmd of o.commands) {
    const claims = cmd === "migrate" ? { authentication_provider: "op" } : refusedClaims(sub, cmd, state);
    const res = await k.account(cmd, sub, {
      ...(cmd === "migrate" || cmd === "activate" || cmd === "maintain" ? { claims } : {}),
      label: `${cmd} (${state})`,
    });
    incompatible(c, `${cmd} of ${o.what}`, res, sub, state);
    if (before === undefined || !before.ok) continue;
    const after = await snapshot(c, k, sub, `audit after the refused ${cmd}`);
    const changed = changes(before, after);
    c.check("CMD-INCOMPATIBLE-STATE", changed.length === 0, {
      expected: `audit after the refused ${cmd} of ${o.what}: account_state ${quote(before.state ?? null)} and the retained claims as before`,
      actual: changed.join("; "),
      res: after.res,
      // A state or claim that changed: the refused command was carried out all the same.
      kind: !after.ok
        ? "wrong-status"
        : after.state === undefined && before.state !== undefined
          ? "missing"
          : "accepted",
    });
    // Each later refusal is compared with what the account is now, so a finding names the
    // refusal that changed it rather than every one after it.
    if (after.ok) before = after;
  }
}
