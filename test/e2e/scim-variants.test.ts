import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JWK } from "jose";
import { describe, expect, it } from "vitest";
import { signAssertion } from "../../mocks/identity-service/assertion.js";
import { startScimTarget } from "../../targets/scim/index.js";
import type { RunningTarget } from "../../src/engine/target.js";
import { ROOT, runCli, runDemoProfile, tempDir, verdicts, writeProfile } from "../helpers/cli.js";

/** An access token from the reference target's token endpoint (what a vendor would paste in). */
async function tokenFor(t: RunningTarget, scope: string): Promise<string> {
  const endpoint = `${t.env.IDC_DEMO_SCIM_ISSUER}/oauth/token`;
  const assertion = await signAssertion(JSON.parse(t.env.IDC_DEMO_SCIM_CLIENT_KEY ?? "") as JWK, {
    clientId: t.env.IDC_DEMO_SCIM_CLIENT_ID ?? "",
    audience: endpoint,
  });
  const res = await fetch(endpoint, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: assertion,
      scope,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Users of the target whose userName starts with `prefix`. */
async function usersNamed(t: RunningTarget, prefix: string): Promise<string[]> {
  const token = await tokenFor(t, "scim");
  const filter = encodeURIComponent(`userName sw "${prefix}"`);
  const res = await fetch(`${t.env.IDC_DEMO_SCIM_URL}/Users?filter=${filter}&count=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { Resources?: { userName: string }[] };
  return (body.Resources ?? []).map((u) => u.userName);
}

describe("SCIM suite profile variants (issue: SCIM suite §2, §3, §4)", () => {
  it("with a static bearer token and no probe, the OAuth requirements say 'not exercised' and revocation 'needs probe'; MUST coverage is below 100 %, names each, and --certify exits 1", async () => {
    const t = await startScimTarget({ faults: [] });
    try {
      const dir = tempDir();
      const profile = writeProfile(
        dir,
        `name: scim-static-token
options:
  seed: 3
  allowInsecureHttp: true
suites:
  scim:
    baseUrl: \${IDC_DEMO_SCIM_URL}
    auth:
      bearerToken: \${SCIM_TOKEN}
      noScopeToken: \${SCIM_OTHER_TOKEN}
    rateLimit:
      burst: 500
`,
      );
      const env = {
        ...t.env,
        SCIM_TOKEN: await tokenFor(t, "scim"),
        SCIM_OTHER_TOKEN: await tokenFor(t, "profile"),
      };
      const cli = await runCli(["run", profile, "--out", join(dir, "out"), "--certify"], {
        env,
        timeoutMs: 120_000,
      });
      // Every MUST exercised passed, but a certification run must exercise every MUST that applies.
      expect(cli.code, cli.stderr).toBe(1);
      const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
      const v = verdicts(results);
      const oauth = [
        "SCIM-AUTH-JWT-CLIENT",
        "SCIM-AUTH-SCOPE-ONLY",
        "SCIM-AUTH-TOKEN-EXPIRES",
        "SCIM-AUTH-ASSERTION-AUD",
        "SCIM-AUTH-ASSERTION-SIG",
        "SCIM-AUTH-ASSERTION-EXP",
        "SCIM-AUTH-ASSERTION-REPLAY",
        "SCIM-AUTH-ASSERTION-ISS",
        "SCIM-AUTH-ASSERTION-REQUIRED",
        "SCIM-AUTH-AS-METADATA",
        "SCIM-AUTH-TOKEN-REQUEST",
      ];
      const skipped = Object.keys(v)
        .filter((id) => v[id] === "skip")
        .sort();
      expect(skipped).toEqual([...oauth, "SCIM-USER-DEACTIVATE-REVOKES"].sort());
      const reason = (id: string): string =>
        results.requirements.find((r: { id: string }) => r.id === id).findings[0]?.message ?? "";
      for (const id of oauth) expect(reason(id)).toContain("not exercised");
      expect(reason("SCIM-USER-DEACTIVATE-REVOKES")).toContain("needs probe");
      // The scope check still ran, with the profile's token without the scim scope.
      expect(v["SCIM-AUTH-SCOPE"]).toBe("pass");
      // Skipped MUSTs are not passes: coverage below 100 %, each one named with why.
      const mustSkipped = [
        ...oauth.filter((id) => id !== "SCIM-AUTH-AS-METADATA"),
        "SCIM-USER-DEACTIVATE-REVOKES",
      ];
      const must = results.coverage.must as {
        applicable: number;
        decided: number;
        notExercised: { id: string; why: string[] }[];
      };
      expect(must.notExercised.map((x) => x.id).sort()).toEqual([...mustSkipped].sort());
      expect(must.notExercised.find((x) => x.id === "SCIM-USER-DEACTIVATE-REVOKES")?.why).toEqual([
        "needs-probe",
      ]);
      expect(must.notExercised.find((x) => x.id === "SCIM-AUTH-JWT-CLIENT")?.why).toEqual(["not-declared"]);
      expect(must.decided).toBe(must.applicable - mustSkipped.length);
      const percent = Math.floor((must.decided * 100) / must.applicable);
      expect(percent).toBeLessThan(100);
      expect(cli.stderr).toContain(
        `MUST coverage: ${must.decided}/${must.applicable} (${percent} %) decided; ${mustSkipped.length} not exercised`,
      );
      for (const id of mustSkipped) expect(cli.stderr).toMatch(new RegExp(`NOT EXERCISED ${id} \\(`));
      expect(results.run.certifiable).toBe(false);
      const notCert = results.run.notCertifiable.find((r: string) => r.includes("not exercised")) as string;
      expect(notCert).toMatch(
        new RegExp(`^${mustSkipped.length} applicable MUST requirement\\(s\\) not exercised: `),
      );
      for (const id of mustSkipped) expect(notCert).toContain(id);
      expect(results.outcome.reason).toMatch(/^--certify: the run is not certifiable \(/);
      expect(cli.stderr).toContain("exit 1: --certify: the run is not certifiable");
      expect(readFileSync(join(dir, "out", "report.html"), "utf8")).toContain(
        `MUST coverage: ${must.decided}/${must.applicable} (${percent} %) decided`,
      );
      // No token from the environment is in any output.
      const all =
        readFileSync(join(dir, "out", "results.json"), "utf8") +
        readFileSync(join(dir, "out", "report.html"), "utf8") +
        cli.stdout +
        cli.stderr;
      expect(all).not.toContain(env.SCIM_TOKEN);
      expect(all).not.toContain(env.SCIM_OTHER_TOKEN);
    } finally {
      await t.close();
    }
  });

  it("a provider that throttles the whole client after a burst: the burst runs last and alone, and nothing fails for it", async () => {
    // A gateway's limit: once a token goes over 400 a second, every request of the client,
    // with a token or without, is refused for 3 s. Run as a user runs it (test files in
    // parallel), a check beside the burst or right after it would meet 429.
    const t = await startScimTarget({ faults: [], rateLimit: { penaltySeconds: 3 } });
    try {
      const dir = tempDir();
      const profile = writeProfile(
        dir,
        `name: scim-gateway-limit
options:
  seed: 5
  allowInsecureHttp: true
suites:
  scim:
    baseUrl: \${IDC_DEMO_SCIM_URL}
    auth:
      issuer: \${IDC_DEMO_SCIM_ISSUER}
      clientId: \${IDC_DEMO_SCIM_CLIENT_ID}
      clientKey: \${IDC_DEMO_SCIM_CLIENT_KEY}
    rateLimit:
      burst: 500
    probes:
      userAccess:
        url: \${IDC_DEMO_SCIM_PROBE}
`,
      );
      const cli = await runCli(["run", profile, "--out", join(dir, "out")], {
        env: t.env,
        timeoutMs: 180_000,
      });
      const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8")) as {
        requirements: { id: string; verdict: string; findings: { message: string }[] }[];
        checks: { check: string; exchanges: { startedAt: string; durationMs: number }[] }[];
        cleanup: unknown[];
      };
      const rate = results.checks.find((c) => c.check === "scim.rate-limit");
      const others = results.checks.filter((c) => c.check !== "scim.rate-limit");
      const start = Math.min(...(rate?.exchanges ?? []).map((e) => Date.parse(e.startedAt)));
      const lastEnd = Math.max(
        ...others.flatMap((c) => c.exchanges.map((e) => Date.parse(e.startedAt) + e.durationMs)),
      );
      // Alone and last: every other check's exchanges ended before the burst's first began.
      expect(lastEnd).toBeLessThanOrEqual(start);
      // The main token's own traffic may go over too (the lifecycle model is fast): such a 429
      // is waited out by every check, the authentication probes included, and fails none.
      const v = verdicts(results);
      const burst = results.requirements.find((r) => r.id === "SCIM-RATE-LIMIT");
      // On a machine too loaded to send 400 requests a second the burst is undecidable, and says so.
      if (v["SCIM-RATE-LIMIT"] === "error")
        expect(burst?.findings[0]?.message).toContain("too slow to judge");
      else expect(v["SCIM-RATE-LIMIT"]).toBe("pass");
      const rest = Object.entries(v).filter(([id, x]) => id !== "SCIM-RATE-LIMIT" && x !== "pass");
      expect(rest, cli.stdout.slice(-2000)).toEqual([]);
      // The check waited the limit out: the clean-up after it deleted everything.
      expect(results.cleanup).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("the lifecycle model finds a state-table fault, shrinks it to at most 4 commands, and --seed replays it", async () => {
    const runs = await Promise.all(
      [0, 1].map(() =>
        runDemoProfile("scim", ["reactivation-refused"], ["--grep", "SCIM-USER-LIFECYCLE", "--seed", "11"]),
      ),
    );
    const actual = runs.map(({ results }) => {
      const r = results?.requirements.find((x) => x.id === "SCIM-USER-LIFECYCLE");
      expect(r?.verdict).toBe("fail");
      return String(r?.findings[0]?.actual ?? "");
    });
    const seq = /shrunk sequence: (.*?) \/\*/.exec(actual[0] ?? "")?.[1] ?? "";
    expect(seq.split(",").length, actual[0]).toBeLessThanOrEqual(4);
    expect(seq).toContain("reactivate(");
    expect(actual[0]).toContain("--seed 11");
    // The same seed gives the same shrunk sequence.
    expect(/shrunk sequence: [^(]*/.exec(actual[1] ?? "")?.[0]).toBe(
      /shrunk sequence: [^(]*/.exec(actual[0] ?? "")?.[0],
    );
  });

  it("an interrupted run still deletes every user and group it created", async () => {
    const t = await startScimTarget({ faults: [] });
    try {
      const dir = tempDir();
      const child = spawn(
        process.execPath,
        [
          join(ROOT, "bin", "idconform.js"),
          "run",
          join(ROOT, "profiles", "demo", "scim.yaml"),
          "--out",
          join(dir, "out"),
        ],
        { cwd: ROOT, env: { ...process.env, ...t.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let sent = false;
      const onData = (d: Buffer): void => {
        stdout += d.toString();
        // Interrupt once the first check finished: the next one is creating users.
        if (!sent && /\[\s*1\/\d+\]/.test(stdout)) {
          sent = true;
          child.kill("SIGINT");
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(sent).toBe(true);
      expect(code, stdout).toBe(3);
      const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
      expect(results.run.interrupted).toBe(true);
      expect(results.cleanup).toEqual([]);
      expect(await usersNamed(t, "idc-")).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
