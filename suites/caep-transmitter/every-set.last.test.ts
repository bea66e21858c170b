import { registerSection } from "../../src/engine/register.js";
import { everyPushChecks } from "./checks/push.js";
import { setChecks } from "./checks/set-format.js";

// `.last`: these judge every SET and every push of the run, so they read the mock Receiver's log
// and the run's ledger after every other check has made its streams receive what they receive.
registerSection(
  "caep-transmitter",
  "RFC 8417, SSF 1.0 §4, RFC 8935 §2.1: every SET and every push of the run",
  [...setChecks, ...everyPushChecks],
);
