import type { JWK } from "jose";
import { defineSuite } from "../../src/engine/suite.js";
import { startTransmitter, type PreconfiguredStream } from "../../mocks/transmitter/index.js";
import { TransmitterClient } from "../../mocks/transmitter/client.js";
import { catalog } from "./requirements.js";
import { audienceOf, caepReceiverProfile, type CaepReceiverProfile } from "./profile.js";
import type { CaepReceiverProvided } from "./receiver-client.js";
import { caepReceiverObservers } from "./observers.js";
import { acceptanceChecks } from "./checks/acceptance.js";
import { refusalChecks } from "./checks/refusals.js";
import { robustnessChecks } from "./checks/robustness.js";
import { effectChecks } from "./checks/effects.js";
import { pollChecks, pollLogChecks } from "./checks/poll.js";
import { keyChecks } from "./checks/keys.js";
import { streamChecks, streamRunChecks } from "./checks/stream-setup.js";

/** The stream the profile gives, for a Receiver that does not create its own at the mock. */
function preconfigured(p: CaepReceiverProfile): PreconfiguredStream[] {
  if (p.stream !== "preconfigured") return [];
  const audience = audienceOf(p);
  if (p.delivery === "push" && p.push)
    return [
      { delivery: "push", endpointUrl: p.push.endpointUrl, authorization: p.push.authorization, audience },
    ];
  if (p.delivery === "poll" && p.poll) return [{ delivery: "poll", streamId: p.poll.streamId, audience }];
  return [];
}

/**
 * The port the mock listens on: the profile's; else, when publicUrl names a loopback host with
 * a port, that port (a Receiver on this machine configured with that URL reaches it there);
 * else a free one.
 */
function portOf(t: CaepReceiverProfile["transmitter"]): number | undefined {
  if (t.port !== undefined) return t.port;
  if (t.publicUrl === undefined) return undefined;
  const u = new URL(t.publicUrl);
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname);
  return loopback && u.port !== "" ? Number(u.port) : undefined;
}

/**
 * CAEP receiver (specs/002 area B; SSF 1.0, RFC 8935, RFC 8936): idconform plays the
 * Transmitter toward the Receiver under test. The setup starts the mock Transmitter
 * (mocks/transmitter): discovery, jwks_uri, stream management and the poll endpoint, offering
 * only the profile's delivery method so the Receiver picks it; the checks sign SETs with its key.
 */
export default defineSuite({
  name: "caep-receiver",
  title: "CAEP receiver (Shared Signals Receiver)",
  document: "specs/002 area B",
  catalog,
  profileSchema: caepReceiverProfile,
  // In-process runs follow this order, as the section files do (`*.last` alone, in name order:
  // poll, rotation, stream): the poll batches change the stream's page size, the key rotation the
  // Transmitter's keys (no check delivering SETs may follow it), and the stream and poll-log
  // checks read what every other check caused.
  checks: [
    ...acceptanceChecks,
    ...refusalChecks,
    ...robustnessChecks,
    ...effectChecks,
    ...pollChecks,
    ...keyChecks,
    ...streamChecks,
    ...streamRunChecks,
    ...pollLogChecks,
  ],
  observers: caepReceiverObservers,
  async setup(profile) {
    const t = profile.transmitter;
    const port = portOf(t);
    const mock = await startTransmitter({
      ...(port !== undefined ? { port } : {}),
      ...(t.host !== undefined ? { host: t.host } : {}),
      ...(t.publicUrl !== undefined ? { publicUrl: t.publicUrl } : {}),
      ...(t.issuer !== undefined ? { issuer: t.issuer } : {}),
      ...(t.signingKey !== undefined ? { signingKey: JSON.parse(t.signingKey) as JWK } : {}),
      ...(t.receiverToken !== undefined ? { receiverToken: t.receiverToken } : {}),
      // Only the profile's method is offered, so a Receiver that creates its stream picks it.
      deliveryMethods: [profile.delivery],
      audience: audienceOf(profile),
      streams: preconfigured(profile),
    });
    // A Receiver that creates its own stream does so on its own schedule: the run starts once it
    // has (bounded), and once the mock's verification SET for it is answered, so that no check
    // races the Receiver's set-up and every check meets the Receiver as it will stay. A Receiver
    // that never does is left to the checks, which skip with the reason.
    if (profile.stream === "receiver-creates") {
      const s = await mock.waitForStream(profile.streamSetupTimeoutMs);
      if (s !== undefined)
        await new TransmitterClient(mock.url, mock.controlToken).waitForVerification(s.streamId, 2000);
    }
    const provided: CaepReceiverProvided = {
      mockUrl: mock.url,
      controlToken: mock.controlToken,
      issuer: mock.issuer,
      signingKey: JSON.stringify(mock.signingKey),
    };
    return {
      provide: { ...provided },
      teardown: async () => {
        await mock.close();
      },
    };
  },
});
