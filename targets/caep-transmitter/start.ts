import { randomBytes } from "node:crypto";
import type { RunningTarget } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { createTransmitterApp } from "./app.js";
import type { TransmitterContext } from "./context.js";
import { Emitter } from "./events/emitter.js";
import { faultSet } from "./faults.js";
import { TransmitterKeys } from "./service/keys.js";
import { Receivers } from "./service/receivers.js";
import { ISSUER_PATH, TRIGGER_PATH } from "./ssf.js";
import { StreamStore } from "./streams/store.js";

export interface StartCaepTransmitterOptions {
  readonly faults: readonly string[];
  readonly port?: number;
  readonly tls?: { key: string; cert: string };
}

const secret = (): string => randomBytes(24).toString("base64url");

/**
 * Starts the CAEP Transmitter reference target (SSF 1.0, CAEP 1.0, RFC 8935, RFC 8936) on
 * loopback with the named faults: two Receivers, each with its Bearer token and aud, manage
 * their streams; the trigger hook makes it emit events, pushed or polled. `env` holds what
 * profiles/demo/caep-transmitter.yaml reads.
 */
export async function startCaepTransmitterTarget(opts: StartCaepTransmitterOptions): Promise<RunningTarget> {
  const faults = faultSet(opts.faults);
  const receivers = new Receivers();
  const tokenA = secret();
  const tokenB = secret();
  // Stryker disable next-line StringLiteral,ObjectLiteral: the reference deployment's account names: any two distinct ones are as valid
  receivers.add({ id: "receiver-a", aud: "https://receiver-a.example.com" }, tokenA);
  // Stryker disable next-line StringLiteral,ObjectLiteral: the reference deployment's account names: any two distinct ones are as valid
  receivers.add({ id: "receiver-b", aud: "https://receiver-b.example.com" }, tokenB);
  const keys = await TransmitterKeys.generate(faults);
  const streams = new StreamStore(faults);
  // Stryker disable next-line StringLiteral: set to the server's URL before the first request can arrive
  let issuer = "";
  const emitter = new Emitter({ issuer: () => issuer, keys, receivers, streams, faults });
  const ctx: TransmitterContext = { faults, receivers, streams, emitter, keys, issuer: () => issuer };
  // Stryker disable all: server plumbing: the port and TLS `idconform target` asks for
  const server = await serveApp(createTransmitterApp(ctx), {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  // Stryker restore all
  issuer = `${server.url}${ISSUER_PATH}`;
  return {
    url: issuer,
    // Stryker disable next-line BlockStatement: server plumbing: shutting the target down after the run
    close: async () => {
      await streams.close();
      await server.close();
    },
    env: {
      IDC_DEMO_CAEP_TRANSMITTER_ISSUER: issuer,
      IDC_DEMO_CAEP_TRANSMITTER_TOKEN: tokenA,
      IDC_DEMO_CAEP_TRANSMITTER_TOKEN_2: tokenB,
      IDC_DEMO_CAEP_TRANSMITTER_HOOK: `${server.url}${TRIGGER_PATH}`,
      IDC_DEMO_CAEP_TRANSMITTER_AUDIENCE: "https://receiver-a.example.com",
    },
  };
}
