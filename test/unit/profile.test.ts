import { describe, expect, it } from "vitest";
import { HarnessError } from "../../src/engine/errors.js";
import { loadSuites } from "../../src/engine/discovery.js";
import { parseProfile } from "../../src/engine/profile.js";

const suites = await loadSuites(["fixture"]);
const env = { FIX_URL: "https://target.example/api", FIX_TOKEN: "tok-1234567890" };

function errorOf(yaml: string, e: Record<string, string> = env): HarnessError {
  try {
    parseProfile(yaml, "/tmp/p.yaml", suites, e);
  } catch (err) {
    if (err instanceof HarnessError) return err;
    throw err;
  }
  throw new Error("expected the profile to be refused");
}

const valid = `name: ok
suites:
  fixture:
    baseUrl: \${FIX_URL}
    token: \${FIX_TOKEN}
`;

describe("profiles (core issue §5)", () => {
  it("loads a valid profile, with defaults, and marks environment values secret except plain URLs", () => {
    const p = parseProfile(valid, "/tmp/p.yaml", suites, env);
    expect(p.options.strict).toBe(false);
    expect(p.options.timeouts.requestMs).toBe(10_000);
    expect(p.suites.fixture?.baseUrl).toBe("https://target.example/api");
    expect(p.secrets).toEqual([{ value: "tok-1234567890", name: "FIX_TOKEN" }]);
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives the clean-up a share of runMs: cleanupMs when set, a tenth by default, and refuses a share not below runMs", async () => {
    const { cleanupShare } = await import("../../src/engine/runner.js");
    expect(cleanupShare({ runMs: 1_800_000 })).toBe(60_000);
    expect(cleanupShare({ runMs: 20_000 })).toBe(2_000);
    expect(cleanupShare({ runMs: 1_000 })).toBe(500);
    expect(cleanupShare({ runMs: 8_000, cleanupMs: 2_000 })).toBe(2_000);
    const e = errorOf(`${valid}options:\n  timeouts:\n    runMs: 5000\n    cleanupMs: 5000\n`);
    expect(e.code).toBe("IDC_PROFILE_INVALID");
    expect(e.message).toContain("options.timeouts.cleanupMs: cleanupMs is a share of runMs");
  });

  it("names the exact path and the types on a type error", () => {
    const e = errorOf(valid.replace("token: ${FIX_TOKEN}", "token: 42"));
    expect(e.code).toBe("IDC_PROFILE_INVALID");
    expect(e.message).toContain("suites.fixture.token: expected string, received number");
  });

  it("names a missing required member", () => {
    const e = errorOf(valid.replace("    token: ${FIX_TOKEN}\n", ""));
    expect(e.message).toContain("suites.fixture.token: required (expected string)");
  });

  it("rejects an unknown key and suggests the nearest known one", () => {
    const e = errorOf(valid.replace("token:", "tokn:"));
    expect(e.message).toContain('suites.fixture.tokn: unknown key; did you mean "token"?');
    const top = errorOf(`${valid}optoins:\n  strict: true\n`);
    expect(top.message).toContain('optoins: unknown key; did you mean "options"?');
    const nested = errorOf(`${valid}options:\n  timeouts:\n    requestMS: 5\n`);
    expect(nested.message).toContain('options.timeouts.requestMS: unknown key; did you mean "requestMs"?');
  });

  it("rejects an unknown suite with the known suites", () => {
    const e = errorOf(`${valid}  fixtur:\n    baseUrl: https://x.example\n`);
    expect(e.message).toContain('suites.fixtur: unknown key; did you mean "fixture"?');
  });

  it("names an unset environment variable and where it is used", () => {
    const e = errorOf(valid, { FIX_URL: "https://x.example" });
    expect(e.code).toBe("IDC_PROFILE_ENV_MISSING");
    expect(e.message).toContain("FIX_TOKEN (at suites.fixture.token)");
  });

  it("refuses plain http unless allowInsecureHttp is set", () => {
    const e = errorOf(valid, { ...env, FIX_URL: "http://127.0.0.1:1/" });
    expect(e.message).toContain("suites.fixture.baseUrl: plain http is refused");
    const ok = parseProfile(`${valid}options:\n  allowInsecureHttp: true\n`, "/tmp/p.yaml", suites, {
      ...env,
      FIX_URL: "http://127.0.0.1:1/",
    });
    expect(ok.options.allowInsecureHttp).toBe(true);
  });

  it("rejects a known failure that names no requirement", () => {
    const e = errorOf(`${valid}knownFailures:\n  - id: FIX-HELLO-STATU\n    reason: flaky\n`);
    expect(e.message).toContain(
      'knownFailures[0].id: no requirement "FIX-HELLO-STATU" in any catalog; did you mean "FIX-HELLO-STATUS"?',
    );
  });

  it("reports YAML syntax errors and duplicate keys as such", () => {
    expect(errorOf("name: [unclosed").code).toBe("IDC_PROFILE_YAML");
    expect(errorOf("name: a\nname: b\n").code).toBe("IDC_PROFILE_YAML");
  });

  it("treats an inline secret as secret and warns about it", () => {
    const p = parseProfile(valid.replace("${FIX_TOKEN}", "inline-token-123"), "/tmp/p.yaml", suites, env);
    expect(p.secrets.map((s) => s.value)).toContain("inline-token-123");
    expect(p.warnings[0]).toContain("suites.fixture.token holds a secret inline");
  });
});
