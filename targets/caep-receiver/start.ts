import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import type { RunningTarget } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { createReceiverApp } from "./app.js";
import { faultSet } from "./faults.js";
import { PushAuthorizations } from "./http/push-auth.js";
import { Directory } from "./service/directory.js";
import { Receiver } from "./service/receiver.js";
import { PUSH_PATH } from "./ssf.js";
import { Connector } from "./stream/connector.js";
import { TrustCell } from "./stream/trust.js";

export interface StartCaepReceiverOptions {
  readonly faults: readonly string[];
  readonly port?: number;
  readonly tls?: { key: string; cert: string };
  /**
   * The Transmitter's issuer to trust (for tests that run their own Transmitter first). Without
   * it the target reserves a free loopback port for the mock Transmitter and trusts
   * `http://127.0.0.1:<port>`.
   */
  readonly transmitterUrl?: string;
}

const secret = (): string => randomBytes(24).toString("base64url");

/** A free loopback port, found by listening on port 0 and closing again. */
// Stryker disable all: start plumbing: which free port the mock Transmitter gets
async function reservePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
// Stryker restore all

/**
 * Starts the CAEP Receiver reference target (specs/002 area B, SSF 1.0, RFC 8935, RFC 8936)
 * on loopback with the named faults: it trusts one Transmitter, reads its discovery document
 * (retrying until it answers), creates its stream there, and receives SETs by push or poll.
 * `env` holds what profiles/demo/caep-receiver.yaml reads.
 */
export async function startCaepReceiverTarget(opts: StartCaepReceiverOptions): Promise<RunningTarget> {
  const faults = faultSet(opts.faults);
  const issuer = opts.transmitterUrl ?? `http://127.0.0.1:${await reservePort()}`;
  const token = secret();
  const staticPush = `Bearer ${secret()}`;
  const streamPush = `Bearer ${secret()}`;
  const authorizations = new PushAuthorizations();
  authorizations.add(staticPush);
  authorizations.add(streamPush);
  const directory = new Directory();
  const trust = new TrustCell();
  // Stryker disable next-line StringLiteral: set to the server's URL before the first SET can arrive
  let origin = "";
  const receiver = new Receiver({ issuer, audience: () => origin, trust, directory, faults });
  const app = createReceiverApp({ faults, receiver, directory, authorizations });
  // Stryker disable all: server plumbing: the port and TLS `idconform target` asks for
  const server = await serveApp(app, {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  // Stryker restore all
  origin = server.url;
  const connector = new Connector({
    issuer,
    token,
    pushUrl: `${origin}${PUSH_PATH}`,
    pushAuthorization: streamPush,
    trust,
    receiver,
    faults,
  });
  connector.start();
  return {
    url: origin,
    // Stryker disable next-line BlockStatement: server plumbing: shutting the target down after the run
    close: async () => {
      await connector.close();
      await server.close();
    },
    env: {
      IDC_DEMO_CAEP_RECEIVER_BASE: origin,
      IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_PORT: new URL(issuer).port,
      IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_URL: issuer,
      IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_TOKEN: token,
      IDC_DEMO_CAEP_RECEIVER_AUDIENCE: origin,
      // Stryker disable next-line StringLiteral: read by a preconfigured push profile only (test/unit/caep-receiver-target.test.ts uses it); in the mutation run's profiles the Receiver creates its stream
      IDC_DEMO_CAEP_RECEIVER_PUSH_URL: `${origin}${PUSH_PATH}`,
      IDC_DEMO_CAEP_RECEIVER_PUSH_AUTH: staticPush,
      IDC_DEMO_CAEP_RECEIVER_SESSION_HOOK: `${origin}/hooks/session`,
      IDC_DEMO_CAEP_RECEIVER_SESSION_PROBE: `${origin}/probe/sessions/{session}`,
      IDC_DEMO_CAEP_RECEIVER_ACCESS_PROBE: `${origin}/probe/users/{user}/access`,
    },
  };
}
