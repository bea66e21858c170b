import fc from "fast-check";
import { rethrowControl } from "../../../src/engine/property.js";
import { defineCheck } from "../../../src/engine/check.js";
import type { ScimProfile } from "../profile.js";
import { ScimClient } from "../scim-client.js";
import { commandArbitraries, type Model, type Real, ModelFailure } from "../model/user-commands.js";

const SLOTS = 2;

/** specs/002 area C States and transitions (SCIM users), model-based. */
export const lifecycleChecks = [
  defineCheck<ScimProfile>({
    id: "scim.user-lifecycle",
    title:
      "generated sequences of create, patch, deactivate, reactivate, delete, re-create and get follow the state table",
    requirements: ["SCIM-USER-LIFECYCLE"],
    timeoutMs: 120_000,
    async run(c) {
      const s = new ScimClient(c);
      const created = new Set<string>();
      let runNo = 0;
      const property = fc.asyncProperty(
        fc.commands(commandArbitraries(SLOTS), { maxCommands: c.profile.lifecycle.maxCommands, size: "max" }),
        async (cmds) => {
          runNo++;
          const model: Model = {
            slots: Array.from({ length: SLOTS }, (_, i) => ({
              userName: s.name(`life${runNo}u${i}`),
              id: undefined,
              exists: false,
              active: false,
            })),
          };
          const real: Real = { s, created };
          try {
            await fc.asyncModelRun(() => ({ model, real }), cmds);
          } finally {
            for (const id of created) await s.remove("Users", id);
            created.clear();
          }
        },
      );
      const out = await fc.check(property, { seed: c.seed, numRuns: c.profile.lifecycle.runs });
      rethrowControl(out);
      const err =
        out.errorInstance instanceof Error
          ? out.errorInstance.message.split("\n")[0]
          : String(out.errorInstance ?? "");
      c.check("SCIM-USER-LIFECYCLE", !out.failed, {
        expected: "every command answers as the state table says",
        actual: out.failed
          ? `${err} — shrunk sequence: ${String(out.counterexample?.[0])} (seed ${c.seed}; replay with --seed ${c.seed})`
          : "",
        // The exchange that broke the model (of the shrunk sequence), not the clean-up after it.
        ...(out.errorInstance instanceof ModelFailure ? { res: out.errorInstance.res } : {}),
      });
    },
  }),
];
