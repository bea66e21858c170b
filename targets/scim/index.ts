import type { TargetModule } from "../../src/engine/target.js";
import { faults } from "./faults.js";
import { startScimTarget } from "./start.js";

export { faults } from "./faults.js";
export { startScimTarget, CLIENT_ID, type StartScimOptions } from "./start.js";

/**
 * The SCIM reference target (specs/002 area C): a small, correct Application that
 * `idconform target scim [--fault id]` and the demo run start.
 */
const target: TargetModule = {
  suite: "scim",
  faults,
  start: (opts) => startScimTarget(opts),
};
export default target;
