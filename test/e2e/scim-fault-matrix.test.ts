import { faults } from "../../targets/scim/faults.js";
import { describeFaultMatrix } from "../helpers/fault-matrix.js";

// Honesty rules 1-3 for the SCIM suite (issue: SCIM suite §6).
describeFaultMatrix({
  title: "SCIM suite fault matrix (specs/002 area C)",
  suite: "scim",
  faults,
  minRequirements: 40,
  sweeps: true,
});
