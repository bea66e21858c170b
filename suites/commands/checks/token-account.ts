import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { startJkuHost, tokenAttacks, type TokenAttackId } from "../../../src/engine/token-attacks.js";
import type { CommandsProfile } from "../profile.js";
import { CommandClient, refusal, said, stateOf } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

/**
 * The forgeries sent as a state-changing account command (suspend), and the requirement each
 * decides. The token rules (specs/002 area A Command Token, Authentication 1, Errors) hold for
 * every command, and an RP may validate account commands on a path of its own: refusing a
 * forged metadata command says nothing about a forged suspend.
 */
const ACCOUNT_FORGERIES: readonly [TokenAttackId, string][] = [
  ["embedded-jwk", "CMD-TOKEN-SIGNATURE"],
  ["embedded-x5c", "CMD-TOKEN-SIGNATURE"],
  ["jku", "CMD-TOKEN-SIGNATURE"],
  ["stranger-key", "CMD-TOKEN-SIGNATURE"],
  ["hs256-public-key", "CMD-TOKEN-SIGNATURE"],
  ["flipped-signature", "CMD-TOKEN-SIGNATURE"],
  ["alg-none", "CMD-TOKEN-ALG-NONE"],
  ["unknown-kid", "CMD-TOKEN-KID"],
  ["expired", "CMD-TOKEN-EXPIRED"],
  ["wrong-aud", "CMD-TOKEN-AUD"],
  ["typ-absent", "CMD-TOKEN-TYP"],
];

/** A new active account (skips the check when activate fails: every probe needs one). */
async function activeAccount(c: Ctx, k: CommandClient, what: string): Promise<string> {
  const a = k.sub(what);
  const res = await k.account("activate", a, { label: `activate (${what})` });
  if (res.status !== 200 && res.status !== 204)
    c.skip(`activate answered ${said(res)}: see CMD-ACTIVATE`, "dependency");
  return a;
}

/** Before any forgery: a valid suspend of an active account succeeds, or the refusals prove nothing. */
async function baseline(c: Ctx, k: CommandClient): Promise<void> {
  const a = await activeAccount(c, k, "forged-baseline");
  try {
    const res = await k.account("suspend", a, { label: "valid suspend (baseline)" });
    if (res.status !== 200 && res.status !== 204)
      c.skip(`a valid suspend answered ${said(res)}: see CMD-SUSPEND`, "dependency");
  } finally {
    await k.remove(a);
  }
}

/**
 * Sends one forged suspend of the active account `a` and decides `id`: 400 invalid_request,
 * and the account read back through audit still active (a refusal that was acted on anyway is
 * as bad as an acceptance). Answers whether the account is still known to be active.
 */
async function forgedSuspend(
  c: Ctx,
  k: CommandClient,
  a: string,
  forged: { token: string; title: string },
  id: string,
): Promise<boolean> {
  const { res } = await k.send("suspend", { token: forged.token, label: `suspend, ${forged.title}` });
  const r = refusal(`suspend of an active account, ${forged.title}`, res, [400, "invalid_request"]);
  c.check(id, r.ok, r.details);
  const audit = await k.account("audit", a, { label: "audit after the forged suspend" });
  if (audit.status !== 200) {
    c.note(`a forged suspend not read back: audit answered ${said(audit)} (see CMD-AUDIT-STATE)`);
    return false;
  }
  const state = stateOf(audit);
  c.check(id, state === "active", {
    expected: `audit after the forged suspend (${forged.title}): account_state active`,
    actual: `account_state ${quote(state ?? null)}`,
    res: audit,
    // Another state: the refused suspend was carried out all the same.
    kind: state === undefined || state === null ? "missing" : "accepted",
  });
  return state === "active";
}

/** specs/002 area A Command Token and Authentication: forged tokens of an account command. */
export const accountTokenChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.token-account-command",
    title:
      "a suspend of an active account whose token is forged (a key it carries in jwk, x5c or jku, a stranger key, HS256 keyed with the public key, flipped bytes, alg none, an unknown kid), expired, for another aud or without typ answers 400 invalid_request and leaves the account active",
    requirements: [
      "CMD-TOKEN-SIGNATURE",
      "CMD-TOKEN-ALG-NONE",
      "CMD-TOKEN-KID",
      "CMD-TOKEN-EXPIRED",
      "CMD-TOKEN-AUD",
      "CMD-TOKEN-TYP",
    ],
    async run(c) {
      const k = new CommandClient(c);
      await k.need("activate", "suspend", "audit");
      await baseline(c, k);
      const own = k.signingKey;
      const jku = await startJkuHost();
      let a: string | undefined;
      try {
        for (const [attack, id] of ACCOUNT_FORGERIES) {
          a ??= await activeAccount(c, k, "forged");
          // Made from the suspend a valid command would carry (aud_sub included), fresh each time.
          const claims = k.claims("suspend", { sub: a, claims: k.accountCommandClaims("suspend", a) });
          const [forged] = await tokenAttacks({
            token: await k.sign(claims),
            signingKey: own,
            jku,
            only: [attack],
          });
          // embedded-x5c has no certificate for an EdDSA key.
          if (forged === undefined) continue;
          // A forgery that got through changed the account: the next starts from a fresh active
          // one, so that each finding is its own forgery's.
          if (!(await forgedSuspend(c, k, a, forged, id))) {
            await k.remove(a);
            a = undefined;
          }
        }
      } finally {
        await jku.close();
        if (a !== undefined) await k.remove(a);
      }
    },
  }),
];
