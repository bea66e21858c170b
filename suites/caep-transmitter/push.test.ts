import { registerSection } from "../../src/engine/register.js";
import { pushChecks } from "./checks/push.js";

registerSection("caep-transmitter", "RFC 8935 §4: push delivery after a refusal", pushChecks);
