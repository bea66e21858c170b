import type { TargetModule } from "../../src/engine/target.js";
import { faults } from "./faults.js";
import { LIMITS } from "./limits.js";
import { startFederationTarget } from "./start.js";

export { faults } from "./faults.js";
export { startFederationTarget, type StartFederationOptions } from "./start.js";
export { HOOK_PATH } from "./hook/change-hook.js";

/**
 * The federation reference target (specs/001): a small, correct Trust Anchor with
 * Intermediates, leaves, Trust Marks and event histories that `idconform target federation
 * [--fault id]` and the demo run start. It always serves HTTPS with its own certificate (its env
 * names the CA file), so the engine's `tls` option is not used. `members` (a start option:
 * `--members N`, or the engine's targetOptions) adds generated leaves under the open
 * Intermediate for scale runs.
 */
const target: TargetModule = {
  suite: "federation",
  faults,
  maxMembers: LIMITS.maxGeneratedMembers,
  start: (opts) => {
    const extra = opts as { otherAnchors?: unknown };
    return startFederationTarget({
      faults: opts.faults,
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.members !== undefined ? { members: opts.members } : {}),
      ...(Array.isArray(extra.otherAnchors) ? { otherAnchors: extra.otherAnchors.map(String) } : {}),
    });
  },
};
export default target;
