import { faults } from "../../targets/vci/faults.js";
import { describeFaultMatrix } from "../helpers/fault-matrix.js";

// Honesty rules 1-3 for the credential issuance suite (issue: credential issuance suite §7),
// the authorization code flow through Chromium included. Issued credentials stay with the
// issuer (the interface cannot withdraw them), so there is no sweep to judge.
describeFaultMatrix({
  title: "Credential issuance suite fault matrix (specs/000)",
  suite: "vci",
  faults,
  minRequirements: 80,
  sweeps: false,
});
