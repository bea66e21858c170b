import { faults } from "../../targets/commands/faults.js";
import { describeFaultMatrix } from "../helpers/fault-matrix.js";

// Honesty rules 1-3 for the account commands suite (issue: commands suite §5).
describeFaultMatrix({
  title: "Account commands suite fault matrix (specs/002 area A)",
  suite: "commands",
  faults,
  minRequirements: 50,
  sweeps: true,
});
