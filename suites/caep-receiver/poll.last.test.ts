import { registerSection } from "../../src/engine/register.js";
import { pollChecks } from "./checks/poll.js";

// `.last`: the poll batches change the stream's page size (1 to 4 SETs per poll), which would
// slow every batch of another check beside them to a crawl; they run alone, before the key
// rotation (rotation.last: nothing delivering SETs may follow it) and the checks that read
// every poll of the run (stream.last).
registerSection("caep-receiver", "RFC 8936 poll delivery: acknowledgements and setErrs", pollChecks);
