import { registerSection } from "../../src/engine/register.js";
import { keyChecks } from "./checks/keys.js";

// The key rotation changes the Transmitter's keys for every check beside it: it runs alone, last.
registerSection("caep-receiver", "SSF jwks_uri: key rotation", keyChecks);
