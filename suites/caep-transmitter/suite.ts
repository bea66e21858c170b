import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineSuite } from "../../src/engine/suite.js";
import { startReceiver } from "../../mocks/receiver/index.js";
import { catalog } from "./requirements.js";
import { caepTransmitterProfile } from "./profile.js";
import type { CaepTransmitterProvided } from "./client.js";
import { makeLedger } from "./ledger.js";
import { sweep } from "./cleanup.js";
import { caepTransmitterObservers } from "./observers.js";
import { discoveryChecks } from "./checks/discovery.js";
import { streamChecks } from "./checks/streams.js";
import { statusChecks } from "./checks/status.js";
import { accessChecks } from "./checks/access.js";
import { verificationChecks } from "./checks/verification.js";
import { eventChecks } from "./checks/events.js";
import { everyPushChecks, pushChecks } from "./checks/push.js";
import { pollChecks } from "./checks/poll.js";
import { lifecycleChecks } from "./checks/lifecycle.js";
import { setChecks } from "./checks/set-format.js";

/**
 * CAEP transmitter (specs/002 area B; SSF 1.0, RFC 8935, RFC 8936): idconform plays the Receiver
 * toward the Transmitter under test. The setup starts the mock Receiver (mocks/receiver), whose
 * push endpoints (one slot per stream) record and judge every SET pushed, and a run directory
 * the checks share (ledger.ts); the teardown deletes every stream the run created, also after a
 * failure or an interrupt, and says what it could not.
 */
export default defineSuite({
  name: "caep-transmitter",
  title: "CAEP transmitter (Shared Signals Transmitter)",
  document: "specs/002 area B",
  catalog,
  profileSchema: caepTransmitterProfile,
  // In-process runs follow this order: the every-SET pass reads what every other check received.
  checks: [
    ...discoveryChecks,
    ...streamChecks,
    ...statusChecks,
    ...accessChecks,
    ...verificationChecks,
    ...eventChecks,
    ...pushChecks,
    ...pollChecks,
    ...lifecycleChecks,
    ...setChecks,
    ...everyPushChecks,
  ],
  observers: caepTransmitterObservers,
  async setup(profile, run) {
    const r = profile.receiver;
    const mock = await startReceiver({
      ...(r.port !== undefined ? { port: r.port } : {}),
      ...(r.host !== undefined ? { host: r.host } : {}),
      ...(r.publicUrl !== undefined ? { publicUrl: r.publicUrl } : {}),
    });
    let runDir: string;
    try {
      runDir = await mkdtemp(join(tmpdir(), "idconform-caept-"));
      await makeLedger(runDir);
    } catch (e) {
      await mock.close();
      throw e;
    }
    const provided: CaepTransmitterProvided = {
      receiverUrl: mock.url,
      controlToken: mock.controlToken,
      runDir,
    };
    return {
      provide: { ...provided },
      teardown: async (signal) => {
        try {
          return { leftovers: await sweep(profile, run.runId, run.client, provided, signal) };
        } finally {
          await mock.close();
          await rm(runDir, { recursive: true, force: true });
        }
      },
    };
  },
});
