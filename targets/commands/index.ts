import type { TargetModule } from "../../src/engine/target.js";
import { faults } from "./faults.js";
import { startCommandsTarget } from "./start.js";

export { faults } from "./faults.js";
export { startCommandsTarget, CLIENT_ID, OP_ISSUER, type StartCommandsOptions } from "./start.js";

/**
 * The account-commands reference target (specs/002 area A): a small, correct RP Command
 * Endpoint that `idconform target commands [--fault id]` and the demo run start.
 */
const target: TargetModule = {
  suite: "commands",
  faults,
  start: (opts) => startCommandsTarget(opts),
};
export default target;
