import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { loadSuites } from "../../src/engine/discovery.js";
import { HarnessError } from "../../src/engine/errors.js";
import { parseProfile, type LoadedProfile } from "../../src/engine/profile.js";
import { checkPrivateJwk, checkPublicJwkSet, privateKeyParts } from "../../src/engine/profile-keys.js";

const suites = await loadSuites();

const jwkOf = (k: ReturnType<typeof generateKeyPairSync>["privateKey"]) =>
  k.export({ format: "jwk" }) as Record<string, string>;
const ec256 = jwkOf(generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey);
const ec384 = jwkOf(generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey);
const ec521 = jwkOf(generateKeyPairSync("ec", { namedCurve: "P-521" }).privateKey);
const rsa = jwkOf(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey);
const ed = jwkOf(generateKeyPairSync("ed25519").privateKey);
const EC = JSON.stringify(ec256);

function load(yaml: string, env: Record<string, string> = {}): LoadedProfile {
  return parseProfile(yaml, "/tmp/deep.yaml", suites, env);
}

function refusal(yaml: string, env: Record<string, string> = {}): HarnessError {
  try {
    load(yaml, env);
  } catch (err) {
    if (err instanceof HarnessError) return err;
    throw err;
  }
  throw new Error("expected the profile to be refused");
}

const scim = (o: { probes?: string; key?: string; extra?: string } = {}) => `name: deep
suites:
  scim:
    baseUrl: https://app.example/scim/v2
    auth:
      issuer: https://app.example
      clientId: ids
      clientKey: ${o.key ?? "${KEY}"}
${o.extra ?? ""}${o.probes === undefined ? "" : `    probes:\n${o.probes}`}`;

const commands = (key = "${OP_KEY}", extra = "") => `name: deep
suites:
  commands:
    baseUrl: https://rp.example/commands
    clientId: rp
    op:
      signingKey: ${key}
${extra}`;

const vci = (extra: string) => `name: deep
suites:
  vci:
    baseUrl: https://issuer.example
    offers:
      fixed:
        offer: "openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.example%2Fo"
${extra}`;

/** The text a suite receives for a key member, parsed. */
const keyOf = (p: LoadedProfile, suite: string, get: (s: Record<string, unknown>) => unknown) =>
  JSON.parse(get(p.suites[suite] as unknown as Record<string, unknown>) as string) as Record<string, unknown>;

describe("probes and features are the suite's own (issue 12 item 3)", () => {
  it("a misspelt probe is an error with did you mean, not a silent skip", () => {
    const e = refusal(scim({ probes: "      userAcess:\n        url: https://app.example/u/{id}\n" }), {
      KEY: EC,
    });
    expect(e.code).toBe("IDC_PROFILE_INVALID");
    expect(e.message).toContain(
      'suites.scim.probes.userAcess: unknown key; did you mean "userAccess"? (known: userAccess)',
    );
    const c = refusal(commands("${OP_KEY}", "    probes:\n      acountAccess: false\n"), { OP_KEY: EC });
    expect(c.message).toContain(
      'suites.commands.probes.acountAccess: unknown key; did you mean "accountAccess"?',
    );
  });

  it("a probe's own members are checked: unknown member, URL without the placeholder, method", () => {
    const member = refusal(
      scim({ probes: "      userAccess:\n        url: https://app.example/u/{id}\n        methdo: POST\n" }),
      { KEY: EC },
    );
    expect(member.message).toContain(
      'suites.scim.probes.userAccess.methdo: unknown key; did you mean "method"? (known: url, method, headers)',
    );
    const noId = refusal(scim({ probes: "      userAccess:\n        url: https://app.example/u/me\n" }), {
      KEY: EC,
    });
    expect(noId.message).toContain("suites.scim.probes.userAccess.url: expected a URL with {id}");
    const noSub = refusal(
      commands("${OP_KEY}", "    probes:\n      accountAccess:\n        url: https://rp.example/a/{id}\n"),
      {
        OP_KEY: EC,
      },
    );
    expect(noSub.message).toContain("suites.commands.probes.accountAccess.url: expected a URL with {sub}");
    const method = refusal(
      scim({ probes: "      userAccess:\n        url: https://app.example/u/{id}\n        method: FETCH\n" }),
      { KEY: EC },
    );
    expect(method.message).toContain("suites.scim.probes.userAccess.method: expected one of");
  });

  it("takes a probe as an object or as false (nothing to probe), and says so for anything else", () => {
    const p = load(
      scim({
        probes: "      userAccess:\n        url: https://app.example/u/{id}\n        headers: { x-k: v }\n",
      }),
      { KEY: EC },
    );
    expect(p.suites.scim?.probes).toEqual({
      userAccess: { url: "https://app.example/u/{id}", headers: { "x-k": "v" } },
    });
    expect(load(scim({ probes: "      userAccess: false\n" }), { KEY: EC }).suites.scim?.probes).toEqual({
      userAccess: false,
    });
    const e = refusal(scim({ probes: "      userAccess: true\n" }), { KEY: EC });
    expect(e.message).toContain(
      "suites.scim.probes.userAccess: expected one of: false, { url, method, headers }, received boolean",
    );
  });

  it("a feature no check names is an error; a suite without features says none is known", () => {
    const e = refusal(scim({ extra: "    features:\n      bulk: true\n" }), { KEY: EC });
    expect(e.message).toContain("suites.scim.features.bulk: unknown key (none is known here)");
    const fixture = refusal(`name: f
suites:
  fixture:
    baseUrl: https://greeting.example/
    token: t-0123456789
    features:
      ecoh: true
`);
    expect(fixture.message).toContain('suites.fixture.features.ecoh: unknown key; did you mean "echo"?');
  });

  it("every probe and feature a check names is declared by its suite's section", () => {
    for (const s of suites) {
      const shape = (s.profileSchema as unknown as z.ZodObject).shape as Record<
        string,
        z.ZodDefault<z.ZodObject>
      >;
      const probes = Object.keys(shape.probes?.unwrap().shape ?? {});
      const features = Object.keys(shape.features?.unwrap().shape ?? {});
      for (const c of s.checks) {
        if (c.probe !== undefined) expect(probes, `${s.name} ${c.id}`).toContain(c.probe);
        if (c.feature !== undefined) expect(features, `${s.name} ${c.id}`).toContain(c.feature);
      }
    }
  });

  it("a misspelt hook is an error with did you mean, while a hook's own body stays free", () => {
    const kinds = refusal(`name: deep
suites:
  vci:
    baseUrl: https://issuer.example
    offers:
      trigger:
        url: https://issuer.example/hook
        kinds:
          preAuthorized: { any_member: [of, the, vendor] }
          txcode: { pin: true }
`);
    expect(kinds.message).toContain(
      'suites.vci.offers.trigger.kinds.txcode: unknown key; did you mean "txCode"?',
    );
    expect(kinds.message).not.toContain("any_member");
    const hook = refusal(
      commands(
        "${OP_KEY}",
        "    asyncFailure:\n      comand: maintain_async\n      claims: { email: a@b.example }\n",
      ),
      { OP_KEY: EC },
    );
    expect(hook.message).toContain(
      'suites.commands.asyncFailure.comand: unknown key; did you mean "command"?',
    );
  });

  it("a step of the browser flow that fits no form names its unknown key with the forms", () => {
    const e = refusal(
      vci(`    authorization:
      configuration: c
      steps:
        - fill: { selector: "#u", valeu: x }
        - clik: "#go"
`),
    );
    expect(e.message).toContain(
      'suites.vci.authorization.steps[0].fill.valeu: unknown key; did you mean "value"?',
    );
    expect(e.message).toContain(
      'suites.vci.authorization.steps[1].clik: unknown key; did you mean "click"? (expected one of: { fill }, { click }, { waitFor }, { goto })',
    );
  });
});

describe("signing keys are parsed when the profile loads (issue 12 item 3)", () => {
  it("a key that is not JSON is refused with its path, never quoted", () => {
    const secret = "not-json-but-a-secret-value-1234";
    for (const [yaml, path] of [
      [scim(), "suites.scim.auth.clientKey"],
      [commands("${KEY}"), "suites.commands.op.signingKey"],
    ] as const) {
      const e = refusal(yaml, { KEY: secret });
      expect(e.code).toBe("IDC_PROFILE_INVALID");
      expect(e.message).toContain(`${path}: expected a private JWK as JSON text; the value is not JSON`);
      expect(e.message).not.toContain(secret);
      expect(e.message.split("\n")).toHaveLength(2);
    }
    const pem = refusal(scim(), { KEY: "-----BEGIN PRIVATE KEY-----\nMIGHAgEA\n-----END PRIVATE KEY-----" });
    expect(pem.message).toContain("the value is a PEM key: give it as a JWK (JSON text) instead");
  });

  it("refuses what cannot sign, naming why and never the private members", () => {
    const { d: _d, ...pub } = ec256;
    const other = jwkOf(generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey);
    const small = jwkOf(generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey);
    const x25519 = jwkOf(generateKeyPairSync("x25519").privateKey);
    const cases: [unknown, string][] = [
      [[ec256], "the value is JSON but an array, not an object"],
      [{ keys: [ec256] }, "expected one private JWK, received a JWK Set"],
      [{ crv: "P-256" }, "the JWK has no kty"],
      [pub, "the EC JWK has no d: it is a public key"],
      [{ kty: "oct", k: "c2VjcmV0LXNlY3JldC1zZWNyZXQ" }, 'kty "oct" is a shared secret'],
      [{ ...ec256, crv: "secp256k1" }, 'EC curve "secp256k1" is not taken'],
      [x25519, 'OKP curve "X25519" is not taken (a key-agreement curve'],
      [{ ...ec256, alg: "RS256" }, 'alg "RS256" does not go with an EC P-256 key: expected ES256'],
      [{ ...ec384, alg: "ES256" }, "expected ES384"],
      [{ ...rsa, alg: "ES256" }, "expected RS256, RS384, RS512, PS256, PS384, PS512"],
      [{ ...ec256, use: "enc" }, 'use is "enc", not "sig"'],
      [{ ...ec256, key_ops: ["verify"] }, 'key_ops does not include "sign"'],
      [{ ...ec256, d: other.d }, "x and y are not the public half of d: the JWK mixes two keys"],
      [{ ...ec256, x: "AAAA" }, "not a usable EC P-256 private key"],
      [
        { ...rsa, p: undefined },
        "not a usable RSA private key (an RSA JWK needs n, e, d, p, q, dp, dq and qi",
      ],
      [small, "an RSA key of 1024 bits: 2048 to 8192 are taken"],
    ];
    for (const [jwk, message] of cases) {
      const e = refusal(scim(), { KEY: JSON.stringify(jwk) });
      expect(e.message, message).toContain(`suites.scim.auth.clientKey: `);
      expect(e.message, message).toContain(message);
      for (const m of ["d", "p", "q", "dp", "dq", "qi"]) {
        const v = (jwk as Record<string, unknown> | undefined)?.[m];
        if (typeof v === "string") expect(e.message).not.toContain(v);
      }
    }
  });

  it("a key without alg gets its kty/crv's usual one; a named alg that fits is kept", () => {
    const cases: [Record<string, string>, string][] = [
      [ec256, "ES256"],
      [ec384, "ES384"],
      [ec521, "ES512"],
      [rsa, "RS256"],
      [{ ...rsa, alg: "PS256" }, "PS256"],
      [ed, "EdDSA"],
    ];
    for (const [jwk, alg] of cases) {
      const p = load(commands("${OP_KEY}"), { OP_KEY: JSON.stringify(jwk) });
      const key = keyOf(p, "commands", (s) => (s.op as { signingKey: string }).signingKey);
      expect(key.alg, alg).toBe(alg);
      expect(key.d).toBe(jwk.d);
      const r = checkPrivateJwk(JSON.stringify(jwk));
      expect(r.ok && r.value.alg).toBe(alg);
    }
    // Given with its alg, the text is passed on as it is.
    const withAlg = JSON.stringify({ ...ec256, alg: "ES256" });
    const p = load(scim(), { KEY: withAlg });
    expect((p.suites.scim as unknown as { auth: { clientKey: string } }).auth.clientKey).toBe(withAlg);
  });

  it("hides a key's private members and the text given to the suite, also for a key written inline", () => {
    const p = load(scim(), { KEY: EC });
    const values = p.secrets.map((s) => s.value);
    expect(values).toContain(EC);
    expect(values).toContain(ec256.d);
    expect(values).toContain(JSON.stringify({ ...ec256, alg: "ES256" }));
    const inline = load(scim({ key: `'${EC}'` }));
    expect(inline.secrets.map((s) => s.value)).toContain(ec256.d);
    expect(inline.warnings.join("\n")).toContain("suites.scim.auth.clientKey holds a secret inline");
    // Only a JWK's members: other JSON from the environment adds nothing.
    expect(privateKeyParts('{"d": "not-a-key-member", "k": "v"}')).toEqual([]);
    expect(privateKeyParts("{not json")).toEqual([]);
  });

  it("checks the trusted metadata keys: a JWK Set of usable public keys", () => {
    const pub = (({ d: _d, ...rest }) => rest)(ec256);
    expect(load(vci("    metadataKeys: ${JWKS}\n"), { JWKS: JSON.stringify({ keys: [pub] }) }).name).toBe(
      "deep",
    );
    const cases: [unknown, string][] = [
      ["{", "the value is not JSON"],
      [pub, 'received one JWK: wrap it in {"keys": [...]}'],
      [{ keys: [] }, "the JWK Set has no keys: nothing would verify"],
      [{ keys: [ec256] }, "keys[0] holds private members: give the public keys only"],
      [{ keys: [pub, "x"] }, "keys[1] is a string, not a JWK"],
      [{ keys: [{ kty: "oct", k: "abc" }] }, "keys[0] holds private members"],
      [{ keys: [{ ...pub, x: "AAAA" }] }, "keys[0] is not a usable EC P-256 public key"],
      [{ keys: [{ ...pub, use: "enc" }] }, 'keys[0]: use is "enc", not "sig"'],
    ];
    for (const [set, message] of cases) {
      const e = refusal(vci("    metadataKeys: ${JWKS}\n"), {
        JWKS: typeof set === "string" ? set : JSON.stringify(set),
      });
      expect(e.message, message).toContain(`suites.vci.metadataKeys: `);
      expect(e.message, message).toContain(message);
      expect(e.message).not.toContain(ec256.d);
    }
    expect(checkPublicJwkSet(JSON.stringify({ keys: [pub] })).ok).toBe(true);
  });
});

describe("a profile with unset variables is still checked (issue 12 item 3)", () => {
  it("lists the unset variables alone when nothing else is wrong, without judging their members", () => {
    const e = refusal(scim({ probes: "      userAccess:\n        url: ${PROBE}\n" }));
    expect(e.code).toBe("IDC_PROFILE_ENV_MISSING");
    expect(e.message).toContain("KEY (at suites.scim.auth.clientKey)");
    expect(e.message).toContain("PROBE (at suites.scim.probes.userAccess.url)");
    expect(e.message).not.toContain("JWK");
  });

  it("names a typo and a bad key that did resolve next to the unset variables", () => {
    const e = refusal(
      `name: deep
suites:
  scim:
    baseUrl: \${SCIM_URL}
    auth:
      issuer: https://app.example
      clientId: ids
      clientKey: \${KEY}
    probes:
      userAcess: false
  commands:
    baseUrl: https://rp.example/commands
    clientId: rp
    op:
      signingKey: \${OP_KEY}
`,
      { OP_KEY: "nope-not-a-key" },
    );
    expect(e.code).toBe("IDC_PROFILE_INVALID");
    expect(e.message).toContain('suites.scim.probes.userAcess: unknown key; did you mean "userAccess"?');
    expect(e.message).toContain(
      "suites.commands.op.signingKey: expected a private JWK as JSON text; the value is not JSON",
    );
    expect(e.message).toContain("environment variable(s) not set (their values are checked once set):");
    expect(e.message).toContain("SCIM_URL (at suites.scim.baseUrl)");
    expect(e.message).not.toContain("suites.scim.baseUrl: expected");
    expect(e.message).not.toContain("suites.scim.auth.clientKey:");
    expect(e.message).not.toContain("nope-not-a-key");
  });
});
