import { z } from "zod";
import { privateJwkText } from "../../src/engine/profile-keys.js";
import { accessProbe, probes, suiteSection } from "../../src/engine/suite.js";

const claims = z.record(z.string(), z.unknown());
const trigger = z.strictObject({
  /** Account claims that make the RP's policy give this outcome (the account is activated with them). */
  claims,
});

/**
 * The `suites.commands` section: the RP's Command Endpoint (`baseUrl`, the `aud` of every
 * Command Token), the OP idconform plays, and the test hooks a vendor declares.
 */
export const commandsProfile = suiteSection({
  /** Whether an account can still act: `{sub}` is the OP's subject (the probe of `checks/effects.ts`). */
  probes: probes({ accountAccess: accessProbe("{sub}") }),
  /** The RP's client_id at the OP. */
  clientId: z.string().min(1),
  op: z
    .strictObject({
      /** The issuer the RP trusts; by default the mock OP's public URL. */
      issuer: z.url().optional(),
      /**
       * The OP's private signing key as a JWK (JSON text, from the environment); generated (ES256)
       * when absent. Any JWS algorithm jose signs with (ES256/384/512, RS256, PS256, EdDSA...);
       * without `alg`, the key type's usual one (RS256 for RSA, EdDSA for OKP, ES* by curve).
       */
      signingKey: privateJwkText().optional(),
      /** Port of the mock OP (discovery, jwks_uri, notification endpoints); 0 picks a free one. */
      port: z.int().min(0).max(65535).optional(),
      /** The URL at which the RP reaches the mock OP, when it is not where it listens. */
      publicUrl: z.url().optional(),
      /** Address the mock OP binds to (default 127.0.0.1; 0.0.0.0 to be reachable from another machine). */
      host: z.string().min(1).optional(),
    })
    .default({}),
  /** Tenant of the run's commands; by default one per run, `<subPrefix>-<run tag>`. */
  tenant: z.string().min(1).max(200).optional(),
  /** Claims the RP keeps from activate and maintain, which audit must answer. */
  retainedClaims: z.array(z.string().min(1)).default(["given_name", "family_name", "email"]),
  /** Longest wait for an asynchronous command's Notification Token, in ms. */
  notificationTimeoutMs: z.int().min(100).max(10_000).default(5000),
  /** How to make an asynchronous command fail at the RP (a test hook of yours); without it, that check is skipped. */
  asyncFailure: z
    .strictObject({
      command: z.enum([
        "activate_async",
        "maintain_async",
        "suspend_async",
        "reactivate_async",
        "archive_async",
        "restore_async",
        "delete_async",
      ]),
      claims,
    })
    .optional(),
  /** Accounts whose migrate the RP refuses by policy (403 access_denied) or cannot transfer (409). */
  migrate: z
    .strictObject({ accessDenied: trigger.optional(), notTransferable: trigger.optional() })
    .default({}),
  /** A tenant whose audit_tenant stream fails at the RP (a test hook of yours), for the error event. */
  streamFailureTenant: z.string().min(1).optional(),
  lifecycle: z
    .strictObject({
      /** Generated command sequences of the model-based check. */
      runs: z.int().min(1).max(200).default(40),
      maxCommands: z.int().min(2).max(50).default(15),
    })
    .default({ runs: 40, maxCommands: 15 }),
  /** Prefix of every sub and tenant the run creates (followed by a run tag). */
  subPrefix: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,15}$/, "expected lower-case letters, digits and dashes")
    .default("idc"),
});
export type CommandsProfile = z.output<typeof commandsProfile>;
