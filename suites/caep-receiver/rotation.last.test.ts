import { registerSection } from "../../src/engine/register.js";
import { keyChecks } from "./checks/keys.js";

// `.last`: the key rotation changes the Transmitter's keys for every check beside it, so it runs
// alone; after the poll batches (poll.last), so that no check delivering SETs comes after it
// (the rotation ends with the original key published again, but a Receiver may take a while to
// trust it again: it refetches jwks_uri only so often), and before the checks that read every
// request of the run (stream.last), which deliver nothing.
registerSection("caep-receiver", "SSF jwks_uri: key rotation", keyChecks);
