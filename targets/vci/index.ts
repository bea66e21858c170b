import type { TargetModule } from "../../src/engine/target.js";
import { faults } from "./faults.js";
import { startVciTarget } from "./start.js";

export { faults } from "./faults.js";
export { startVciTarget, DEMO_USER, type StartVciOptions } from "./start.js";
export { HOOK_PATH } from "./offer/hook-route.js";

/**
 * The credential-issuance reference target (specs/000): a small, correct Credential Issuer
 * and Authorization Server that `idconform target vci [--fault id]` and the demo run
 * start. It always serves HTTPS with its own certificate (its env names the CA file), so
 * the engine's `tls` option is not used; it speaks the `std` identifiers.
 */
const target: TargetModule = {
  suite: "vci",
  faults,
  start: (opts) =>
    startVciTarget({ faults: opts.faults, ...(opts.port !== undefined ? { port: opts.port } : {}) }),
};
export default target;
