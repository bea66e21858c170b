import { generateKeyPairSync } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSuites, ROOT } from "../../src/engine/discovery.js";
import { loadProfile } from "../../src/engine/profile.js";

const suites = await loadSuites();
// Keys are checked when a profile loads (profile-keys.ts): the placeholders are real ones.
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const privateJwk = JSON.stringify(ec.privateKey.export({ format: "jwk" }));
const publicJwks = JSON.stringify({ keys: [ec.publicKey.export({ format: "jwk" })] });

/** Every ${VAR} a profile reads gets a harmless value, so only the profile's shape is tested. */
const env = new Proxy({} as Record<string, string>, {
  get: (_t, k) => {
    const name = String(k);
    if (/_(URL|ISSUER|ENDPOINT|ENTITY|ANCHOR|INTERMEDIATE|BASE|HOOK)$|FEDERATION_CLIENT_ID$/.test(name))
      return "https://127.0.0.1:9/";
    // Each suite's probes name their own placeholders; a URL with all of them fits every probe.
    if (name.endsWith("_PROBE")) return "https://127.0.0.1:9/probe/{id}/{sub}/{session}/{user}";
    if (name.endsWith("JWKS")) return publicJwks;
    if (/(CLIENT_KEY|OP_KEY|PRIVATE_JWK)$/.test(name)) return privateJwk;
    // Distinct per variable: a profile may require two of them to differ (two tokens).
    return `placeholder-${name.toLowerCase()}`;
  },
});

describe("shipped profiles are valid (core issue §5)", () => {
  for (const dir of ["demo", "examples"]) {
    for (const f of readdirSync(join(ROOT, "profiles", dir)).filter((x) => x.endsWith(".yaml"))) {
      it(`profiles/${dir}/${f} validates`, () => {
        expect(() => loadProfile(join(ROOT, "profiles", dir, f), suites, env)).not.toThrow();
      });
    }
  }
});
