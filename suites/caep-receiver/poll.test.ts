import { registerSection } from "../../src/engine/register.js";
import { pollChecks } from "./checks/poll.js";

registerSection("caep-receiver", "RFC 8936 poll delivery: acknowledgements and setErrs", pollChecks);
