import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { FindingKind } from "../../../src/engine/finding-kind.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { CommandsProfile } from "../profile.js";
import { accountClaims, body, CommandClient, isError, refusal, said, stateOf } from "../client.js";
import { TABLE, type State } from "../model/account-commands.js";
import { refusals } from "./refusals.js";

type Ctx = CheckContext<CommandsProfile>;

/** Decides the success of one transition: 200 with sub and the new state (or 204, no body). */
function transition(
  c: Ctx,
  id: string,
  what: string,
  res: HttpResponse,
  sub: string,
  state: string,
): boolean {
  const b = body(res);
  const ok = res.status === 204 || (res.status === 200 && b.account_state === state && b.sub === sub);
  const absent = b.account_state === undefined || b.sub === undefined;
  c.check(id, ok, {
    expected: `${what}: 200 with account_state ${state}`,
    actual: said(res),
    res,
    kind: res.status !== 200 ? "wrong-status" : absent ? "missing" : "wrong-value",
  });
  if (res.status === 200) {
    c.check("CMD-SUCCESS-RESPONSE", b.sub === sub && typeof b.account_state === "string", {
      expected: `${what}: a JSON body with sub ${sub} and account_state`,
      actual: res.text.slice(0, 200),
      res,
      kind: absent ? "missing" : "wrong-value",
    });
  } else
    c.check("CMD-SUCCESS-RESPONSE", res.status === 204, {
      expected: `${what}: 200 (or 204)`,
      actual: said(res),
      res,
      kind: "wrong-status",
    });
  return ok;
}

/**
 * The kind of a violation by an answer that had to be 200 with account_state (and, `withSub`,
 * sub): another status, either member absent, or a state (or sub) the document does not allow.
 */
function auditKind(res: HttpResponse, withSub = false): FindingKind {
  const b = body(res);
  if (res.status !== 200) return "wrong-status";
  return b.account_state === undefined || (withSub && b.sub === undefined) ? "missing" : "wrong-value";
}

/** The account's state as audit answers it (when the RP supports audit), to confirm a transition. */
async function audited(k: CommandClient, sub: string): Promise<unknown> {
  const list = await k.supported();
  if (!list.includes("audit")) return undefined;
  return stateOf(await k.account("audit", sub));
}

/** specs/002 area A States and transitions (Account lifecycle), one row at a time. */
export const lifecycleChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.state-table",
    title:
      "every row of the state table: activate, maintain, suspend, reactivate, archive (from active and suspended), restore, invalidate, delete",
    requirements: [
      "CMD-ACTIVATE",
      "CMD-MAINTAIN",
      "CMD-SUSPEND",
      "CMD-REACTIVATE",
      "CMD-ARCHIVE",
      "CMD-RESTORE",
      "CMD-INVALIDATE",
      "CMD-DELETE",
      "CMD-SUCCESS-RESPONSE",
    ],
    async run(c) {
      const k = new CommandClient(c);
      await k.need("activate");
      const list = await k.supported();
      const has = (x: string): boolean => list.includes(x);
      const a = k.sub("rows");
      const b = k.sub("rows");
      const d = k.sub("rows");
      /**
       * One row: the command, its answer, then the state read back through audit (when the
       * RP offers it), so that an answer the RP did not store is not a pass.
       */
      const row = async (
        id: string,
        what: string,
        command: string,
        sub: string,
        state: string,
        claims?: Record<string, unknown>,
      ): Promise<boolean> => {
        const res = await k.account(command, sub, claims ? { claims, label: what } : { label: what });
        const ok = transition(c, id, what, res, sub, state);
        if (!ok) return false;
        const seen = await audited(k, sub);
        if (seen === undefined) return true;
        c.check(id, seen === state, { expected: `audit after ${what}: ${state}`, actual: String(seen) });
        return seen === state;
      };
      try {
        c.require(
          "CMD-ACTIVATE",
          await row("CMD-ACTIVATE", "activate of a new account", "activate", a, "active"),
          {
            expected: "the account is created and reads back active",
            actual: "the activate row failed (its finding above); every other row needs the account",
          },
        );
        if (has("maintain"))
          await row("CMD-MAINTAIN", "maintain", "maintain", a, "active", { given_name: "Grace" });
        if (has("invalidate"))
          await row("CMD-INVALIDATE", "invalidate of an active account", "invalidate", a, "active");
        if (has("suspend")) {
          await row("CMD-SUSPEND", "suspend", "suspend", a, "suspended");
          if (has("reactivate"))
            await row("CMD-REACTIVATE", "reactivate of a suspended account", "reactivate", a, "active");
        }
        if (has("archive")) {
          await row("CMD-ARCHIVE", "archive of an active account", "archive", a, "archived");
          if (has("restore"))
            await row("CMD-RESTORE", "restore of an archived account", "restore", a, "active");
          if (has("suspend")) {
            await row("CMD-ACTIVATE", "activate of a second account", "activate", b, "active");
            await k.account("suspend", b);
            await row("CMD-ARCHIVE", "archive of a suspended account", "archive", b, "archived");
          }
        }
        if (has("delete")) {
          await row("CMD-DELETE", "delete", "delete", a, "unknown");
          // Any state but unknown: delete from suspended and from archived too.
          if (has("suspend")) {
            await row("CMD-ACTIVATE", "activate of a third account", "activate", d, "active");
            if ((await k.account("suspend", d)).status === 200)
              await row("CMD-DELETE", "delete of a suspended account", "delete", d, "unknown");
          }
          if (has("archive") && has("suspend"))
            await row("CMD-DELETE", "delete of an archived account", "delete", b, "unknown");
          // All Account data deleted: activated again without family_name (and with another
          // given_name), the sub must come back as a new account, none of its old claims.
          const again = await k.account("activate", a, {
            claims: { given_name: "Ada", family_name: undefined },
            label: "activate the deleted sub again",
          });
          c.check("CMD-DELETE", again.status === 200 || again.status === 204, {
            expected: "after delete the sub is unknown: activate succeeds",
            actual: said(again),
            res: again,
            // A 409 incompatible_state says the account is still there: the delete's state, not a status.
            kind: isError(again, 409, "incompatible_state") ? "wrong-value" : "wrong-status",
          });
          if ((again.status === 200 || again.status === 204) && has("audit")) {
            const audit = await k.account("audit", a, { label: "audit of the re-activated sub" });
            const kept = body(audit);
            const old = ["family_name", "given_name"].filter(
              (x) => (x === "family_name" && x in kept) || (x === "given_name" && kept[x] === "Grace"),
            );
            c.check("CMD-DELETE", old.length === 0, {
              expected: "the re-activated account holds none of the deleted account's claims",
              actual: old.map((x) => `${x} ${quote(kept[x] ?? null)}`).join(", ") || "none of them",
              res: audit,
            });
          }
        }
      } finally {
        await k.remove(a, b, d);
      }
      const rows: [string, string[]][] = [
        ["CMD-MAINTAIN", ["maintain"]],
        ["CMD-INVALIDATE", ["invalidate"]],
        ["CMD-SUSPEND", ["suspend"]],
        ["CMD-REACTIVATE", ["suspend", "reactivate"]],
        ["CMD-ARCHIVE", ["archive"]],
        ["CMD-RESTORE", ["archive", "restore"]],
        ["CMD-DELETE", ["delete"]],
      ];
      for (const [id, needs] of rows) {
        const missing = needs.filter((x) => !has(x));
        if (missing.length > 0)
          c.skipOnly(id, `not offered: commands_supported lacks ${missing.join(", ")}`, "not-offered");
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.incompatible-state",
    title:
      "every failed precondition answers 409 incompatible_state with the current account_state and sub, and leaves the account's state and retained claims as they were",
    requirements: ["CMD-INCOMPATIBLE-STATE"],
    async run(c) {
      const k = new CommandClient(c);
      await k.need("activate");
      const list = await k.supported();
      // Without audit a refusal can be judged only by its answer, not read back.
      const readable = list.includes("audit");
      if (!readable)
        c.note("refusals not read back: commands_supported lacks audit (only the 409 answers are judged)");
      const refuse = (sub: string, state: string, commands: readonly string[], what: string) =>
        refusals(c, k, { sub, state, commands, what, readable });
      const ghost = k.sub("ghost");
      await refuse(
        ghost,
        "unknown",
        ["maintain", "suspend", "reactivate", "archive", "restore", "delete", "invalidate", "migrate"].filter(
          (x) => list.includes(x),
        ),
        "an account that does not exist",
      );
      const a = k.sub("conflict");
      try {
        const act = await k.account("activate", a);
        if (act.status !== 200 && act.status !== 204)
          c.skip(`activate answered ${said(act)}: see CMD-ACTIVATE`, "dependency");
        // Every command the state table does not allow from each state the account can reach.
        const refusedFrom = (state: State): string[] =>
          Object.keys(TABLE).filter((cmd) => TABLE[cmd]?.[state] === undefined && list.includes(cmd));
        await refuse(a, "active", refusedFrom("active"), "an active account");
        if (list.includes("suspend") && (await k.account("suspend", a)).status === 200)
          await refuse(a, "suspended", refusedFrom("suspended"), "a suspended account");
        if (list.includes("archive") && (await k.account("archive", a)).status === 200)
          await refuse(a, "archived", refusedFrom("archived"), "an archived account");
      } finally {
        await k.remove(a);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.audit",
    title:
      "audit answers the account's state (unknown when it does not exist) and the claims the RP kept, as last maintained",
    requirements: ["CMD-AUDIT-STATE", "CMD-AUDIT-CLAIMS"],
    async run(c) {
      const k = new CommandClient(c);
      await k.need("audit", "activate");
      const ghost = k.sub("never");
      const none = await k.account("audit", ghost, { label: "audit of an account that does not exist" });
      c.check("CMD-AUDIT-STATE", none.status === 200 && stateOf(none) === "unknown", {
        expected: "200 with account_state unknown",
        actual: said(none),
        kind: auditKind(none),
      });
      const a = k.sub("audit");
      try {
        const act = await k.account("activate", a);
        if (act.status !== 200 && act.status !== 204)
          c.skip(`activate answered ${said(act)}: see CMD-ACTIVATE`, "dependency");
        const first = await k.account("audit", a);
        c.check(
          "CMD-AUDIT-STATE",
          first.status === 200 && stateOf(first) === "active" && body(first).sub === a,
          {
            expected: "200 with sub and account_state active",
            actual: said(first),
            kind: auditKind(first, true),
          },
        );
        let want = accountClaims(a);
        if ((await k.supported()).includes("maintain")) {
          want = accountClaims(a, {
            given_name: "Grace",
            family_name: "Hopper",
            email: `${a}@maintained.example.test`,
          });
          await k.account("maintain", a, { claims: want });
        }
        const after = body(await k.account("audit", a, { label: "audit after maintain" }));
        const wrong = c.profile.retainedClaims.filter(
          // Compared as bounded renderings: `want` is ours and small, so equal renderings are equal values.
          (name) => quote(after[name], 10_000) !== quote(want[name], 10_000),
        );
        c.check("CMD-AUDIT-CLAIMS", wrong.length === 0, {
          kind: wrong.some((n) => after[n] === undefined) ? "missing" : "wrong-value",
          expected: `the retained claims (suites.commands.retainedClaims: ${c.profile.retainedClaims.join(", ")}) as last sent`,
          actual: wrong
            .map((n) => `${n}: ${quote(after[n] ?? null)} (sent ${quote(want[n] ?? null)})`)
            .join("; "),
        });
        // Commands that carry no claims leave the retained ones as last maintained: read back
        // after an invalidate (the account stays active), nothing may have been dropped.
        if ((await k.supported()).includes("invalidate")) {
          const inv = await k.account("invalidate", a);
          if (inv.status === 200 || inv.status === 204) {
            const kept = body(await k.account("audit", a, { label: "audit after invalidate" }));
            const lost = c.profile.retainedClaims.filter(
              (name) => quote(kept[name], 10_000) !== quote(want[name], 10_000),
            );
            c.check("CMD-AUDIT-CLAIMS", lost.length === 0, {
              kind: lost.some((n) => kept[n] === undefined) ? "missing" : "wrong-value",
              expected:
                "after an invalidate (which carries no claims): the retained claims as last maintained",
              actual: lost
                .map((n) => `${n}: ${quote(kept[n] ?? null)} (last sent ${quote(want[n] ?? null)})`)
                .join("; "),
            });
          }
        }
      } finally {
        await k.remove(a);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.aud-sub",
    title:
      "with aud_sub_required, responses carry aud_sub, and a command naming that aud_sub acts on that account",
    requirements: ["CMD-AUD-SUB"],
    async run(c) {
      const k = new CommandClient(c);
      const metaRes = await k.metadata(k.tenant, undefined, {}, { label: "metadata (aud_sub_required)" });
      // No Metadata Response says nothing of aud_sub_required: a dependency, not an option declined.
      if (metaRes.status !== 200)
        c.skip(`the metadata command answered ${said(metaRes)}: see CMD-METADATA-SUPPORTED`, "dependency");
      const meta = body(metaRes);
      if (meta.aud_sub_required !== true)
        c.skip("not offered: the Metadata Response does not set aud_sub_required", "not-offered");
      await k.need("activate", "audit");
      const a = k.sub("audsub");
      try {
        const act = await k.account("activate", a);
        if (act.status !== 200) c.skip(`activate answered ${said(act)}: see CMD-ACTIVATE`, "dependency");
        const audSub = body(act).aud_sub;
        c.require("CMD-AUD-SUB", typeof audSub === "string" && audSub.length > 0, {
          expected: "activate's response carries aud_sub",
          actual: quote(audSub ?? null),
        });
        const viaAudSub = await k.account("audit", a, {
          claims: { aud_sub: audSub },
          label: "audit naming aud_sub",
        });
        c.check(
          "CMD-AUD-SUB",
          viaAudSub.status === 200 && body(viaAudSub).aud_sub === audSub && stateOf(viaAudSub) === "active",
          {
            expected: `audit with aud_sub ${String(audSub)}: 200, active, the same aud_sub`,
            actual: `${said(viaAudSub)} aud_sub ${quote(body(viaAudSub).aud_sub ?? null)}`,
            kind:
              viaAudSub.status !== 200
                ? "wrong-status"
                : body(viaAudSub).aud_sub === undefined || stateOf(viaAudSub) === undefined
                  ? "missing"
                  : "wrong-value",
          },
        );
        // A command naming an aud_sub no account has must not act on the sub's account.
        const stranger = await k.account("audit", a, {
          claims: { aud_sub: `${String(audSub)}-unknown` },
          label: "audit naming an unknown aud_sub",
        });
        // It names no account: 200 unknown (an Account not found is reported as unknown), or a
        // refusal of the request; a 5xx is the RP failing on a valid command.
        c.check(
          "CMD-AUD-SUB",
          stranger.status < 500 &&
            (stranger.status !== 200 || stateOf(stranger) !== "active" || body(stranger).aud_sub !== audSub),
          {
            expected:
              "an unknown aud_sub is not resolved to the sub's account (200 unknown, or a 4xx refusal)",
            actual: said(stranger),
          },
        );
        // Nor may a command that changes state act on it: identified by an aud_sub that names
        // no account, the suspend finds no account, and the sub's account stays active.
        if ((await k.supported()).includes("suspend")) {
          const wrong = await k.account("suspend", a, {
            claims: { aud_sub: `${String(audSub)}-unknown` },
            label: "suspend naming an unknown aud_sub",
          });
          const still = stateOf(await k.account("audit", a, { label: "audit after the suspend" }));
          c.check("CMD-AUD-SUB", still === "active", {
            expected: "a suspend naming an unknown aud_sub leaves the sub's account active",
            actual: `the suspend answered ${said(wrong)}; audit then: account_state ${quote(still ?? null)}`,
            // Another state: a suspend that named no account was carried out on this one.
            kind: still === undefined || still === null ? "missing" : "accepted",
          });
        }
        // A command naming the aud_sub acts on the account (read back: gone), and its answer
        // carries that aud_sub (its account_state is CMD-DELETE's to judge).
        if ((await k.supported()).includes("delete")) {
          const del = await k.account("delete", a, {
            claims: { aud_sub: audSub },
            label: "delete naming aud_sub",
          });
          c.check("CMD-AUD-SUB", del.status === 204 || (del.status === 200 && body(del).aud_sub === audSub), {
            expected: `delete naming aud_sub ${String(audSub)}: 200 carrying that aud_sub (or 204)`,
            actual: `${said(del)} aud_sub ${quote(body(del).aud_sub ?? null)}`,
            res: del,
            kind:
              del.status !== 200
                ? "wrong-status"
                : body(del).aud_sub === undefined
                  ? "missing"
                  : "wrong-value",
          });
          const gone = await k.account("audit", a, {
            claims: { aud_sub: undefined },
            label: "audit by sub after the delete",
          });
          // The answer's status is CMD-AUDIT-STATE's to judge; here only that the account is gone.
          c.check("CMD-AUD-SUB", stateOf(gone) === "unknown", {
            expected: "audit by sub after the delete naming aud_sub: account_state unknown",
            actual: said(gone),
            res: gone,
            kind: auditKind(gone),
          });
        }
      } finally {
        await k.remove(a);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.migrate",
    title:
      "migrate with authentication_provider op or op_migration succeeds; without it (or with another value) 400 invalid_request",
    requirements: ["CMD-MIGRATE"],
    async run(c) {
      const k = new CommandClient(c);
      await k.need("migrate", "activate");
      const a = k.sub("migrate");
      try {
        const act = await k.account("activate", a);
        if (act.status !== 200 && act.status !== 204)
          c.skip(`activate answered ${said(act)}: see CMD-ACTIVATE`, "dependency");
        const none = await k.account("migrate", a, { label: "migrate without authentication_provider" });
        const noProvider = refusal("migrate without authentication_provider", none, [400, "invalid_request"]);
        c.check("CMD-MIGRATE", noProvider.ok, noProvider.details);
        const rp = await k.account("migrate", a, {
          claims: { authentication_provider: "rp" },
          label: "migrate to rp",
        });
        const toRp = refusal("migrate to authentication_provider rp", rp, [400, "invalid_request"]);
        c.check("CMD-MIGRATE", toRp.ok, toRp.details);
        for (const to of ["op_migration", "op"]) {
          const res = await k.account("migrate", a, {
            claims: { authentication_provider: to },
            label: `migrate to ${to}`,
          });
          c.check(
            "CMD-MIGRATE",
            res.status === 204 || (res.status === 200 && body(res).sub === a && stateOf(res) === "active"),
            {
              expected: `migrate to ${to}: 200 with sub and account_state active`,
              actual: said(res),
              kind: auditKind(res, true),
            },
          );
        }
      } finally {
        await k.remove(a);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.migrate-errors",
    title:
      "a migrate the RP's policy refuses answers 403 access_denied; one it cannot transfer answers 409 authentication_not_transferable",
    requirements: ["CMD-MIGRATE-DENIED", "CMD-MIGRATE-NOT-TRANSFERABLE"],
    async run(c) {
      const k = new CommandClient(c);
      await k.need("migrate", "activate");
      const cases = [
        ["CMD-MIGRATE-DENIED", c.profile.migrate.accessDenied, 403, "access_denied", "accessDenied"],
        [
          "CMD-MIGRATE-NOT-TRANSFERABLE",
          c.profile.migrate.notTransferable,
          409,
          "authentication_not_transferable",
          "notTransferable",
        ],
      ] as const;
      if (cases.every(([, t]) => t === undefined))
        c.skip(
          "not declared: suites.commands.migrate.accessDenied / notTransferable name no accounts to refuse",
          "not-declared",
        );
      for (const [id, trigger, status, error, key] of cases) {
        if (trigger === undefined) continue;
        const a = k.sub(key.toLowerCase());
        try {
          const act = await k.account("activate", a, { claims: trigger.claims });
          if (act.status !== 200 && act.status !== 204)
            c.skip(
              `activating the account of suites.commands.migrate.${key} answered ${said(act)}: see CMD-ACTIVATE`,
              "dependency",
            );
          const res = await k.account("migrate", a, { claims: { authentication_provider: "op" } });
          const r = refusal(`migrate of the account of suites.commands.migrate.${key}`, res, [status, error]);
          c.check(id, r.ok, r.details);
        } finally {
          await k.remove(a);
        }
      }
      // Only the undeclared one is skipped: the other was decided as a whole by the loop.
      for (const [id, trigger, , , key] of cases)
        if (trigger === undefined)
          c.skipOnly(id, `not declared: suites.commands.migrate.${key}`, "not-declared");
    },
  }),
];
