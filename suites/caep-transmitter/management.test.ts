import { registerSection } from "../../src/engine/register.js";
import { discoveryChecks } from "./checks/discovery.js";
import { streamChecks } from "./checks/streams.js";
import { statusChecks } from "./checks/status.js";
import { accessChecks } from "./checks/access.js";
import { verificationChecks } from "./checks/verification.js";

// Discovery and stream management in one section file: vitest imports the suite once per file,
// and with a file per section those imports were most of the suite's time. A test worker that
// dies takes this file's unfinished checks with it (each an error with the reason); the other
// files still run.
registerSection("caep-transmitter", "SSF 1.0 §7: Transmitter configuration discovery", discoveryChecks);
registerSection(
  "caep-transmitter",
  "SSF 1.0 §8.1.1: stream configuration (create, read, list, update, replace, delete)",
  streamChecks,
);
registerSection("caep-transmitter", "SSF 1.0 §8.1.2 and §8.1.3: stream status and subjects", statusChecks);
registerSection(
  "caep-transmitter",
  "SSF 1.0 §8: stream management authorization and isolation between Receivers",
  accessChecks,
);
registerSection("caep-transmitter", "SSF 1.0 §8.1.4: verification", verificationChecks);
