import { registerSection } from "../../src/engine/register.js";
import { eventChecks } from "./checks/events.js";
import { pollChecks } from "./checks/poll.js";
import { pushChecks } from "./checks/push.js";

// Event delivery in one section file (see management.test.ts for why sections share a file).
registerSection("caep-transmitter", "CAEP 1.0 §3: triggered events arrive on the stream", eventChecks);
registerSection("caep-transmitter", "RFC 8936 poll delivery", pollChecks);
// The two checks each watch their own stream's pushes for about two seconds: side by side.
registerSection("caep-transmitter", "RFC 8935 §4: push delivery after a refusal", pushChecks, {
  concurrent: true,
});
