import type { JWK } from "jose";
import { defineSuite } from "../../src/engine/suite.js";
import { startOp } from "../../mocks/op/index.js";
import { catalog } from "./requirements.js";
import { commandsProfile } from "./profile.js";
import { withAlg, type CommandsProvided } from "./client.js";
import { metadataChecks } from "./checks/metadata.js";
import { tokenChecks } from "./checks/token.js";
import { accountTokenChecks } from "./checks/token-account.js";
import { supportedChecks } from "./checks/supported.js";
import { lifecycleChecks } from "./checks/lifecycle.js";
import { effectChecks } from "./checks/effects.js";
import { modelChecks } from "./checks/model.js";
import { asyncChecks } from "./checks/async.js";
import { streamChecks } from "./checks/stream.js";
import { metadataTenantChecks } from "./checks/metadata-tenant.js";
import { sweep } from "./cleanup.js";
import { commandObservers } from "./observers.js";

/**
 * Account commands (specs/002 area A): idconform plays the OP against the RP's Command
 * Endpoint. The setup starts the mock OP (discovery, jwks_uri, notification endpoints).
 */
export default defineSuite({
  name: "commands",
  title: "Account commands (RP Command Endpoint)",
  document: "specs/002 area A",
  catalog,
  profileSchema: commandsProfile,
  checks: [
    ...metadataChecks,
    ...tokenChecks,
    ...accountTokenChecks,
    ...supportedChecks,
    ...lifecycleChecks,
    ...effectChecks,
    ...modelChecks,
    ...asyncChecks,
    ...streamChecks,
    ...metadataTenantChecks,
  ],
  observers: commandObservers,
  async setup(profile, run) {
    const op = await startOp({
      // An OP key given without alg signs with its key type's usual one (RS256, EdDSA, ES256...).
      ...(profile.op.signingKey ? { privateJwk: withAlg(JSON.parse(profile.op.signingKey) as JWK) } : {}),
      ...(profile.op.issuer ? { issuer: profile.op.issuer } : {}),
      ...(profile.op.port !== undefined ? { port: profile.op.port } : {}),
      ...(profile.op.publicUrl ? { publicUrl: profile.op.publicUrl } : {}),
      ...(profile.op.host ? { host: profile.op.host } : {}),
    });
    const provided: CommandsProvided = {
      opUrl: op.url,
      opPublicUrl: op.publicUrl,
      issuer: op.issuer,
      controlToken: op.control.token,
      signingKey: JSON.stringify(op.privateJwk),
    };
    return {
      provide: { ...provided },
      teardown: async (signal) => {
        try {
          return { leftovers: await sweep(profile, run.runId, run.client, provided, signal) };
        } finally {
          await op.close();
        }
      },
    };
  },
});
