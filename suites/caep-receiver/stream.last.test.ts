import { registerSection } from "../../src/engine/register.js";
import { pollLogChecks } from "./checks/poll.js";
import { streamRunChecks } from "./checks/stream-setup.js";

// `.last`: these judge every poll and stream management request of the run, so they read the
// mock Transmitter's logs after every other check has made its requests.
registerSection("caep-receiver", "SSF 1.0 §8 and RFC 8936 §2: every stream and poll request of the run", [
  ...streamRunChecks,
  ...pollLogChecks,
]);
