import { registerSection } from "../../src/engine/register.js";
import { discoveryChecks } from "./checks/discovery.js";

registerSection("caep-transmitter", "SSF 1.0 §7: Transmitter configuration discovery", discoveryChecks);
