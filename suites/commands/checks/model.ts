import fc from "fast-check";
import { defineCheck } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { isCheckControl } from "../../../src/engine/check-runner.js";
import type { CommandsProfile } from "../profile.js";
import type { FindingKind } from "../../../src/engine/finding-kind.js";
import { body, CommandClient, isError, refusalKind } from "../client.js";
import { commandArbitrary, type Model, type Real, ModelFailure } from "../model/account-commands.js";

const SLOTS = 3;

/**
 * The kind of what broke the model, from the answer it carries. Where the state table refuses
 * the command (the failure expects 409, `fail` in the model), a 2xx carried it out; otherwise
 * another status, an absent error or account_state, another error code, or another state.
 */
function failureKind(err: ModelFailure): FindingKind {
  const { res } = err;
  const refuses = /: expected 409 /.test(err.message);
  if (refuses && !isError(res, 409, "incompatible_state"))
    return refusalKind(res, [[409, "incompatible_state"]]);
  // A 204 breaks the model only as the answer to audit, which must be 200.
  if (!refuses && res.status !== 200) return "wrong-status";
  return body(res).account_state === undefined ? "missing" : "wrong-value";
}

/** specs/002 area A States and transitions, model-based over several accounts. */
export const modelChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.lifecycle-model",
    title: "generated sequences of lifecycle commands and audits over three accounts follow the state table",
    requirements: ["CMD-LIFECYCLE-MODEL"],
    timeoutMs: 120_000,
    async run(c) {
      const k = new CommandClient(c);
      await k.need("activate");
      const supported = await k.supported();
      let runNo = 0;
      let control: unknown;
      const property = fc.asyncProperty(
        fc.commands([commandArbitrary(supported, SLOTS)], {
          maxCommands: c.profile.lifecycle.maxCommands,
          size: "max",
        }),
        async (cmds) => {
          // After a harness error (the run stopped, the target went away) every later run ends
          // at once, so shrinking does not repeat the failure against the target.
          if (control !== undefined) throw control;
          runNo++;
          const model: Model = { states: Array.from({ length: SLOTS }, () => "unknown" as const) };
          const real: Real = {
            k,
            subs: Array.from({ length: SLOTS }, (_, i) => k.sub(`model${runNo}a${i}`)),
          };
          let ok = false;
          try {
            await fc.asyncModelRun(() => ({ model, real }), cmds);
            ok = true;
          } catch (err) {
            if (isCheckControl(err)) control = err;
            throw err;
          } finally {
            // After a clean run the model knows which accounts exist; after a failure it may
            // not, so every account of the run is deleted (an unknown one answers 409, harmlessly).
            await k.remove(...real.subs.filter((_, i) => !ok || model.states[i] !== "unknown"));
          }
        },
      );
      const out = await fc.check(property, {
        seed: c.seed,
        numRuns: c.profile.lifecycle.runs,
        // A slow RP ends the exploration early instead of running into the check's time limit.
        interruptAfterTimeLimit: 90_000,
        markInterruptAsFailure: false,
      });
      rethrowControl(out);
      const err =
        out.errorInstance instanceof Error
          ? out.errorInstance.message.split("\n")[0]
          : String(out.errorInstance ?? "");
      c.check("CMD-LIFECYCLE-MODEL", !out.failed, {
        expected: "every command answers as the state table says",
        actual: out.failed
          ? `${err} — shrunk sequence: ${String(out.counterexample?.[0])} (seed ${c.seed}; replay with --seed ${c.seed})`
          : "",
        // The exchange that broke the model (of the shrunk sequence), not the clean-up after it.
        ...(out.errorInstance instanceof ModelFailure
          ? { res: out.errorInstance.res, kind: failureKind(out.errorInstance) }
          : {}),
      });
    },
  }),
];
