import { registerSection } from "../../src/engine/register.js";
import { streamChecks } from "./checks/stream-setup.js";

registerSection("caep-receiver", "SSF 1.0 §7 and §8: the Receiver sets up its stream", streamChecks);
