import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSuites, ROOT } from "../../src/engine/discovery.js";
import { loadProfile } from "../../src/engine/profile.js";

const suites = await loadSuites();

/** Every ${VAR} a profile reads gets a harmless value, so only the profile's shape is tested. */
const env = new Proxy({} as Record<string, string>, {
  get: (_t, k) => {
    const name = String(k);
    if (/_(URL|ISSUER|ENDPOINT)$/.test(name)) return "https://127.0.0.1:9/";
    if (name.endsWith("JWKS")) return JSON.stringify({ keys: [] });
    if (name.endsWith("CLIENT_KEY"))
      return JSON.stringify({ kty: "EC", crv: "P-256", x: "x", y: "y", d: "d" });
    return "placeholder-value";
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
