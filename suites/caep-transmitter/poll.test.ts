import { registerSection } from "../../src/engine/register.js";
import { pollChecks } from "./checks/poll.js";

registerSection("caep-transmitter", "RFC 8936 poll delivery", pollChecks);
