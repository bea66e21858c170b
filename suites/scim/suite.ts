import type { JWK } from "jose";
import { defineSuite } from "../../src/engine/suite.js";
import { startIdentityService } from "../../mocks/identity-service/index.js";
import { catalog } from "./requirements.js";
import { scimProfile } from "./profile.js";
import { discoveryChecks } from "./checks/discovery.js";
import { authChecks } from "./checks/auth.js";
import { authRequestChecks } from "./checks/auth-requests.js";
import { userChecks } from "./checks/users.js";
import { userPatchChecks } from "./checks/user-patch.js";
import { userValueChecks } from "./checks/user-values.js";
import { errorChecks } from "./checks/errors.js";
import { groupChecks } from "./checks/groups.js";
import { paginationChecks } from "./checks/pagination.js";
import { lifecycleChecks } from "./checks/lifecycle.js";
import { rateLimitChecks } from "./checks/rate-limit.js";
import { sweep } from "./cleanup.js";
import { scimObservers } from "./observers.js";

/**
 * SCIM 2.0 provisioning profile (specs/002 area C): idconform plays the Identity Service
 * against the Application's SCIM service provider.
 */
export default defineSuite({
  name: "scim",
  title: "SCIM 2.0 provisioning profile",
  document: "specs/002 area C",
  catalog,
  profileSchema: scimProfile,
  checks: [
    ...discoveryChecks,
    ...authChecks,
    ...authRequestChecks,
    ...userChecks,
    ...userPatchChecks,
    ...userValueChecks,
    ...errorChecks,
    ...groupChecks,
    ...paginationChecks,
    ...lifecycleChecks,
    ...rateLimitChecks,
  ],
  observers: scimObservers,
  async setup(profile, run) {
    // With OAuth, the Identity Service publishes its jwks_uri for Applications that fetch keys.
    const ids =
      profile.auth.clientKey !== undefined
        ? await startIdentityService({
            privateJwk: JSON.parse(profile.auth.clientKey) as JWK,
            ...(profile.auth.clientId ? { clientId: profile.auth.clientId } : {}),
            ...(profile.identityService.port !== undefined ? { port: profile.identityService.port } : {}),
            ...(profile.identityService.publicUrl ? { publicUrl: profile.identityService.publicUrl } : {}),
          })
        : undefined;
    return {
      provide: ids ? { jwksUri: ids.jwksUri } : {},
      teardown: async (signal) => {
        try {
          return { leftovers: await sweep(profile, run.runId, run.client, signal) };
        } finally {
          await ids?.close();
        }
      },
    };
  },
});
