import { registerSection } from "../../src/engine/register.js";
import { pushChecks } from "./checks/push.js";

// The two checks each watch their own stream's pushes for about two seconds: side by side.
registerSection("caep-transmitter", "RFC 8935 §4: push delivery after a refusal", pushChecks, {
  concurrent: true,
});
