import type { JWK } from "jose";
import type { RunningTarget } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { COMMAND_PATH, createCommandsApp } from "./app.js";
import { faultSet } from "./faults.js";
import { RpKeys } from "./service/rp-keys.js";
import { generateOpKey, trustOp } from "./token/op-keys.js";

/** The RP's client_id at its OP (the demo profile's). */
export const CLIENT_ID = "idconform-demo-rp";
/** The one OP issuer the RP trusts. */
export const OP_ISSUER = "https://op.idconform.test";

export interface StartCommandsOptions {
  readonly faults: readonly string[];
  readonly port?: number;
  /**
   * The OP's key to trust instead of generating one (public or private). A private JWK is
   * also handed back in `env`; with a public one, `env` has no IDC_DEMO_COMMANDS_OP_KEY.
   */
  readonly opJwk?: JWK;
  /** The algorithm of the OP key generated when there is no `opJwk` (default ES256). */
  readonly opAlg?: string;
  readonly tls?: { key: string; cert: string };
}

/**
 * Starts the account-commands reference target (specs/002 area A): an RP's Command
 * Endpoint on loopback, trusting one OP by static key configuration, with the named
 * faults. `env` holds what the commands demo profile reads.
 */
export async function startCommandsTarget(opts: StartCommandsOptions): Promise<RunningTarget> {
  const faults = faultSet(opts.faults);
  const { op, jwk } = await trustOp(OP_ISSUER, opts.opJwk ?? (await generateOpKey(opts.opAlg)));
  // Stryker disable next-line StringLiteral: server plumbing: set once the server listens, before any request
  let origin = "";
  const { app, close } = createCommandsApp({
    faults,
    origin: () => origin,
    clientId: CLIENT_ID,
    op,
    rpKeys: await RpKeys.generate(),
  });
  // Stryker disable all: server plumbing: the port and TLS a run asks for (a mutation run asks for neither)
  const server = await serveApp(app, {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  // Stryker restore all
  origin = server.url;
  return {
    url: server.url,
    // Stryker disable next-line BlockStatement: server plumbing: shutting the target down after the run
    close: async () => {
      close();
      await server.close();
    },
    env: {
      IDC_DEMO_COMMANDS_ENDPOINT: `${origin}${COMMAND_PATH}`,
      IDC_DEMO_COMMANDS_CLIENT_ID: CLIENT_ID,
      IDC_DEMO_COMMANDS_OP_ISSUER: OP_ISSUER,
      // Stryker disable next-line ConditionalExpression: equivalent: a mutation run generates the OP key, which is private
      ...(typeof jwk.d === "string" ? { IDC_DEMO_COMMANDS_OP_KEY: JSON.stringify(jwk) } : {}),
      IDC_DEMO_COMMANDS_PROBE: `${origin}/probe/accounts/{sub}/access`,
    },
  };
}
