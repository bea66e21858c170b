import { faults } from "../../targets/caep-transmitter/faults.js";
import { describeFaultMatrix } from "../helpers/fault-matrix.js";

// Honesty rules 1-3 for the CAEP transmitter suite (issue 15 §6): the demo profile creates push
// and poll streams at the reference Transmitter; the run deletes every stream it made, so each
// run must leave nothing behind.
describeFaultMatrix({
  title: "CAEP transmitter suite fault matrix (specs/002 area B)",
  suite: "caep-transmitter",
  faults,
  minRequirements: 40,
  sweeps: true,
});
