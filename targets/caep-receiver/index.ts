import type { TargetModule } from "../../src/engine/target.js";
import { faults } from "./faults.js";
import { startCaepReceiverTarget } from "./start.js";

export { faults } from "./faults.js";
export { startCaepReceiverTarget, type StartCaepReceiverOptions } from "./start.js";

/**
 * The CAEP Receiver reference target (specs/002 area B; SSF 1.0, CAEP 1.0, RFC 8935, RFC 8936):
 * a small, correct Shared Signals Receiver that `idconform target caep-receiver [--fault id]`
 * and the demo run start.
 */
const target: TargetModule = {
  suite: "caep-receiver",
  faults,
  start: (opts) => startCaepReceiverTarget(opts),
};
export default target;
