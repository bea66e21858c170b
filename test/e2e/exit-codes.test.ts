import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureProfile, runCli, runFixture, tempDir, writeProfile } from "../helpers/cli.js";

describe("exit codes and usage errors (core issue §6)", () => {
  it("0 when every MUST passed, 1 when a requirement failed", async () => {
    expect((await runFixture({})).cli.code).toBe(0);
    expect((await runFixture({ faults: ["auth-open"] })).cli.code).toBe(1);
  });

  it("a SHOULD failure warns (exit 0) and fails under --strict (exit 1)", async () => {
    const normal = await runFixture({ faults: ["hello-cacheable"] });
    expect(normal.cli.code).toBe(0);
    expect(normal.cli.stderr).toMatch(/WARN\s+FIX-HELLO-NO-STORE/);
    const strict = await runFixture({ faults: ["hello-cacheable"], args: ["--strict"] });
    expect(strict.cli.code).toBe(1);
    expect(strict.results?.requirements.find((r) => r.id === "FIX-HELLO-NO-STORE")?.verdict).toBe("fail");
  });

  it("2 for a profile with a type error, naming the exact path", async () => {
    const dir = tempDir();
    const profile = writeProfile(
      dir,
      fixtureProfile().replace("callbackTimeoutMs: 1500", "callbackTimeoutMs: soon"),
    );
    const res = await runCli(["run", profile], {
      env: { IDC_DEMO_FIXTURE_URL: "http://127.0.0.1:9/", IDC_DEMO_FIXTURE_TOKEN: "x" },
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("IDC_PROFILE_INVALID");
    expect(res.stderr).toContain("suites.fixture.callbackTimeoutMs: expected number, received string");
  });

  it("2 for bad usage: unknown command, bad --seed, missing profile, unknown suite", async () => {
    expect((await runCli(["frobnicate"])).code).toBe(2);
    const seed = await runCli(["run", "profiles/demo/fixture.yaml", "--seed", "x"], {
      env: { IDC_DEMO_FIXTURE_URL: "http://127.0.0.1:9/", IDC_DEMO_FIXTURE_TOKEN: "x" },
    });
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain("--seed: expected a whole number");
    const missing = await runCli(["run", "does/not/exist.yaml"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("profile not found");
    expect((await runCli(["requirements", "--suite", "nope"])).code).toBe(2);
    expect((await runCli(["target", "fixture", "--fault", "nope"])).code).toBe(2);
  });

  it("3 when the target is unreachable: errors, never failures", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const dir = tempDir();
    const profile = writeProfile(dir, fixtureProfile());
    const res = await runCli(["run", profile, "--out", join(dir, "out")], {
      env: { IDC_DEMO_FIXTURE_URL: `http://127.0.0.1:${port}`, IDC_DEMO_FIXTURE_TOKEN: "token-unused" },
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("target unreachable");
    expect(res.stderr).toMatch(/0 pass · 0 fail · 0 warn · \d+ skip · \d+ error/);
  });

  it("lists requirements and faults, as text and JSON", async () => {
    const req = await runCli(["requirements", "--suite", "fixture", "--json"]);
    expect(req.code).toBe(0);
    const rows = JSON.parse(req.stdout) as { id: string; checks: string[] }[];
    expect(rows.find((r) => r.id === "FIX-HELLO-STATUS")?.checks).toEqual(["fixture.hello-shape"]);
    const faults = await runCli(["target", "fixture", "--list-faults", "--json"]);
    expect(faults.code).toBe(0);
    expect((JSON.parse(faults.stdout) as { id: string }[]).map((f) => f.id)).toContain("auth-open");
  });
});
