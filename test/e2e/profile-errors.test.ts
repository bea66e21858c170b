import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, writeProfile } from "../helpers/cli.js";

/** A commands profile whose OP key and probe come from the environment. */
const profile = (
  probes = "      accountAccess:\n        url: https://rp.example/probe/{sub}\n",
) => `name: deep-errors
suites:
  commands:
    baseUrl: https://127.0.0.1:9/commands
    clientId: rp
    op:
      signingKey: \${IDC_TEST_OP_KEY}
    probes:
${probes}`;

const KEY_TEXT = "op-key-that-is-not-json-0123456789";

/** One error, naming the profile path, and nothing of a stack trace or of the key. */
function expectOneClearError(stderr: string, line: string): void {
  expect(stderr).toContain("error IDC_PROFILE_INVALID: profile.yaml is not a valid profile:");
  expect(stderr).toContain(line);
  expect(stderr.match(/^ {2}- /gm)).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(stderr).not.toContain("IDC_INTERNAL");
  expect(stderr).not.toContain(KEY_TEXT);
}

describe("profile errors end to end (issue 12 item 3)", () => {
  it("validate: a non-JSON signing key is exit 2 with its path, a good key is exit 0", async () => {
    const dir = tempDir();
    const p = writeProfile(dir, profile());
    const bad = await runCli(["validate", p], { env: { IDC_TEST_OP_KEY: KEY_TEXT } });
    expect(bad.code).toBe(2);
    expectOneClearError(
      bad.stderr,
      "suites.commands.op.signingKey: expected a private JWK as JSON text; the value is not JSON",
    );
    const jwk = generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ format: "jwk" });
    const good = await runCli(["validate", p], { env: { IDC_TEST_OP_KEY: JSON.stringify(jwk) } });
    expect(good.code).toBe(0);
    expect(good.stderr).toContain('valid profile "deep-errors"');
    expect(good.stderr).not.toContain(String(jwk.d));
  });

  it("validate: a misspelt probe is exit 2 with did you mean, also while the key's variable is unset", async () => {
    const dir = tempDir();
    const p = writeProfile(
      dir,
      profile("      acountAccess:\n        url: https://rp.example/probe/{sub}\n"),
    );
    const res = await runCli(["validate", p], { env: { IDC_TEST_OP_KEY: "" } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'suites.commands.probes.acountAccess: unknown key; did you mean "accountAccess"? (known: accountAccess)',
    );
    const unset = await runCli(["validate", p], { env: {} });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain(
      'suites.commands.probes.acountAccess: unknown key; did you mean "accountAccess"?',
    );
    expect(unset.stderr).toContain("IDC_TEST_OP_KEY (at suites.commands.op.signingKey)");
  });

  it("run: a non-JSON signing key stops the run before it starts (exit 2, no stack trace, no report)", async () => {
    const dir = tempDir();
    const p = writeProfile(dir, profile());
    const out = join(dir, "out");
    const res = await runCli(["run", p, "--out", out], { env: { IDC_TEST_OP_KEY: KEY_TEXT } });
    expect(res.code).toBe(2);
    expectOneClearError(
      res.stderr,
      "suites.commands.op.signingKey: expected a private JWK as JSON text; the value is not JSON",
    );
    expect(existsSync(join(out, "results.json"))).toBe(false);
  });

  it("run: a misspelt probe is exit 2 naming it, not a check skipped for want of a probe", async () => {
    const dir = tempDir();
    const p = writeProfile(
      dir,
      profile("      accountAccess:\n        url: https://rp.example/probe/{sub}\n        heders: {}\n"),
    );
    const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
    const res = await runCli(["run", p, "--out", join(dir, "out")], {
      env: { IDC_TEST_OP_KEY: JSON.stringify(jwk) },
    });
    expect(res.code).toBe(2);
    expectOneClearError(
      res.stderr,
      'suites.commands.probes.accountAccess.heders: unknown key; did you mean "headers"? (known: url, method, headers)',
    );
  });
});
