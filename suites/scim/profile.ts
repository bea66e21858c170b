import { z } from "zod";
import { privateJwkText } from "../../src/engine/profile-keys.js";
import { accessProbe, probes, suiteSection } from "../../src/engine/suite.js";

const auth = z
  .strictObject({
    /** OAuth issuer of the Application's authorization server; its RFC 8414 metadata names the token endpoint. */
    issuer: z.url().optional(),
    /** Token endpoint, when there is no RFC 8414 metadata. */
    tokenEndpoint: z.url().optional(),
    /** client_id the Application registered for the Identity Service. */
    clientId: z.string().min(1).optional(),
    /**
     * The Identity Service's private signing key as a JWK (JSON text), from the environment;
     * checked when the profile loads (`src/engine/profile-keys.ts` says which keys are taken).
     */
    clientKey: privateJwkText().optional(),
    /** A static bearer token instead of OAuth (the OAuth requirements are then not exercised). */
    bearerToken: z.string().min(1).optional(),
    /** With bearerToken: a token without the scim scope, to check scope enforcement. */
    noScopeToken: z.string().min(1).optional(),
    /** With OAuth: a scope other than scim the client may ask for, to get a token without scim. */
    otherScope: z
      .string()
      .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/)
      .default("profile"),
  })
  .superRefine((a, ctx) => {
    const oauth =
      a.clientId !== undefined ||
      a.clientKey !== undefined ||
      a.issuer !== undefined ||
      a.tokenEndpoint !== undefined;
    if (oauth && a.bearerToken !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["bearerToken"],
        message:
          "give either OAuth settings (clientId, clientKey, issuer or tokenEndpoint) or bearerToken, not both",
      });
    }
    if (!oauth && a.bearerToken === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message:
          "give OAuth settings (clientId, clientKey, and issuer or tokenEndpoint) or a static bearerToken",
      });
    }
    if (oauth) {
      if (a.clientId === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["clientId"],
          message: "required with OAuth (expected string)",
        });
      if (a.clientKey === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["clientKey"],
          message: "required with OAuth: the Identity Service's private JWK (expected string)",
        });
      if (a.issuer === undefined && a.tokenEndpoint === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["issuer"],
          message: "give issuer (RFC 8414 discovery) or tokenEndpoint",
        });
      }
    }
  });

/** `suites.scim` of a profile (specs/002 area C). */
export const scimProfile = suiteSection({
  /** Whether a user can still act: `{id}` is its SCIM id (the probe of `checks/users.ts`). */
  probes: probes({ userAccess: accessProbe("{id}") }),
  auth,
  /** Where the Identity Service mock listens and how the Application reaches its jwks_uri. */
  identityService: z
    .strictObject({ port: z.int().min(0).max(65535).optional(), publicUrl: z.url().optional() })
    .default({}),
  rateLimit: z
    .strictObject({
      /**
       * Requests sent in the burst that must meet 429: `GET /Users?count=1` with one token,
       * `parallel` in flight at a time, each batch sent when the last has answered, stopping
       * at the first 429. It runs after every other check, alone.
       */
      burst: z.int().min(1).max(5000).default(150),
      /** Requests of the burst in flight at once. */
      parallel: z.int().min(1).max(100).default(10),
      /**
       * The limit the vendor states (requests per `windowSeconds`), when known: at or above the
       * burst the check is skipped; below it, a burst that met no 429 fails only if more than
       * this many requests went out within one window.
       */
      statedLimit: z.int().min(1).optional(),
      /**
       * The window of the limit, in seconds. Without `statedLimit`, a burst that met no 429
       * fails only if all of it went out within one window; a slower burst proves nothing and
       * is an `error` saying the rate it reached.
       */
      windowSeconds: z.number().min(0.1).max(3600).default(1),
      /** Longest Retry-After the recovery check waits for. */
      maxWaitSeconds: z.int().min(0).max(120).default(5),
    })
    .default({ burst: 150, parallel: 10, windowSeconds: 1, maxWaitSeconds: 5 }),
  pagination: z
    .strictObject({
      /** Users the pagination property creates for its walks. */
      users: z.int().min(2).max(200).default(9),
      /** Generated (count, startIndex) walks. */
      runs: z.int().min(1).max(500).default(25),
    })
    .default({ users: 9, runs: 25 }),
  lifecycle: z
    .strictObject({
      runs: z.int().min(1).max(200).default(50),
      maxCommands: z.int().min(2).max(50).default(15),
    })
    .default({ runs: 50, maxCommands: 15 }),
  /** Prefix of every userName and group name the run creates (followed by a run tag). */
  resourcePrefix: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,15}$/, "expected lower-case letters, digits and dashes")
    .default("idc"),
});
export type ScimProfile = z.output<typeof scimProfile>;
