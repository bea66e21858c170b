import { join } from "node:path";
import { faults } from "../../targets/caep-receiver/faults.js";
import { ROOT } from "../helpers/cli.js";
import { describeFaultMatrix } from "../helpers/fault-matrix.js";

// Honesty rules 1-3 for the CAEP receiver suite (issue 14 §6). The demo profile pushes SETs to the
// reference Receiver; the faults of its poller show only when it polls, and run with the poll
// profile against the same reference target.
describeFaultMatrix({
  title: "CAEP receiver suite fault matrix (specs/002 area B)",
  suite: "caep-receiver",
  faults,
  minRequirements: 40,
  sweeps: false,
  variants: {
    poll: {
      profileFile: join(ROOT, "profiles", "demo", "caep-receiver-poll.yaml"),
      faults: faults.filter((f) => f.id.startsWith("poll-")).map((f) => f.id),
    },
  },
});
