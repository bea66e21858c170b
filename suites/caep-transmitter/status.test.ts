import { registerSection } from "../../src/engine/register.js";
import { statusChecks } from "./checks/status.js";

registerSection("caep-transmitter", "SSF 1.0 §8.1.2 and §8.1.3: stream status and subjects", statusChecks);
