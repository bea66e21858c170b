import { registerSection } from "../../src/engine/register.js";
import { eventChecks } from "./checks/events.js";

registerSection("caep-transmitter", "CAEP 1.0 §3: triggered events arrive on the stream", eventChecks);
