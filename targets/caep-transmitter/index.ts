import type { TargetModule } from "../../src/engine/target.js";
import { faults } from "./faults.js";
import { startCaepTransmitterTarget } from "./start.js";

export { faults } from "./faults.js";
export { startCaepTransmitterTarget, type StartCaepTransmitterOptions } from "./start.js";

/**
 * The CAEP Transmitter reference target (specs/002 area B; SSF 1.0, CAEP 1.0, RFC 8935,
 * RFC 8936): a small, correct Shared Signals Transmitter that `idconform target
 * caep-transmitter [--fault id]` and the demo run start.
 */
const target: TargetModule = {
  suite: "caep-transmitter",
  faults,
  start: (opts) => startCaepTransmitterTarget(opts),
};
export default target;
