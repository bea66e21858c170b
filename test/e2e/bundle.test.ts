import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Results } from "../../src/report/results.js";
import { keyPair, startEntity } from "../helpers/bundle.js";
import { ROOT, runCli, runDemoProfile, tempDir } from "../helpers/cli.js";

const PROFILE = join(ROOT, "profiles", "demo", "scim.yaml");

describe("idconform bundle + verify: a signed evidence bundle of a real run (issue 12 item 7)", () => {
  let runDir = "";
  let results: Results;
  let dir = "";
  let keyFile = "";
  let jwksFile = "";
  let jwks: Awaited<ReturnType<typeof keyPair>>["jwks"];
  let privateJwk: Awaited<ReturnType<typeof keyPair>>["privateJwk"];

  beforeAll(async () => {
    const run = await runDemoProfile("scim", []);
    expect(run.cli.code, run.cli.stderr).toBe(0);
    results = run.results!;
    runDir = join(run.dir, "out");
    dir = tempDir("idc-bundle-e2e-");
    ({ jwks, privateJwk } = await keyPair("ES256", "certifier-2026"));
    keyFile = join(dir, "certifier.jwk");
    jwksFile = join(dir, "certifier.jwks");
    writeFileSync(keyFile, JSON.stringify(privateJwk));
    writeFileSync(jwksFile, JSON.stringify(jwks));
  }, 180_000);

  it("bundle then verify round-trip; verify prints the target, suites, date and coverage", async () => {
    const out = join(dir, "run.idcb");
    const b = await runCli(["bundle", runDir, "--key", keyFile, "--profile", PROFILE, "--out", out]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain("not certifiable");
    expect(b.stderr).not.toContain(String(privateJwk.d));
    const v = await runCli(["verify", out, "--jwks", jwksFile]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toContain("signed ES256 by kid certifier-2026");
    expect(v.stderr).toContain(`suite scim: target ${results.run.suites[0]!.target}`);
    expect(v.stderr).toContain(`started ${results.run.startedAt}`);
    expect(v.stderr).toContain(
      `coverage: ${results.summary.total} requirement(s) decided (${results.summary.pass} pass`,
    );
    expect(v.stderr).toContain("run exit code (recomputed from the verdicts) 0");
    expect(v.stderr).toContain("verified:");
    const j = await runCli(["verify", out, "--jwks", jwksFile, "--json"]);
    expect(j.code, j.stderr).toBe(0);
    const data = JSON.parse(j.stdout) as {
      ok: boolean;
      manifest: { run: { id: string }; files: { name: string }[] };
      recomputed: { exitCode: number; summary: { total: number } };
    };
    expect(data.ok).toBe(true);
    expect(data.manifest.run.id).toBe(results.run.id);
    expect(data.manifest.files.map((f) => f.name)).toEqual(["results.json", "report.html", "profile.yaml"]);
    expect(data.recomputed).toMatchObject({ exitCode: 0, summary: { total: results.summary.total } });
  });

  it.each(["results.json", "report.html", "profile.yaml"])(
    "a flipped byte in %s fails verification, naming it",
    async (member) => {
      const out = join(dir, `flip-${member}.idcb`);
      const b = await runCli(["bundle", runDir, "--key", keyFile, "--profile", PROFILE, "--out", out]);
      expect(b.code, b.stderr).toBe(0);
      const doc = JSON.parse(readFileSync(out, "utf8")) as { files: Record<string, string> };
      const bytes = Buffer.from(doc.files[member]!, "base64url");
      bytes[bytes.length >> 1]! ^= 0x20;
      doc.files[member] = bytes.toString("base64url");
      writeFileSync(out, `${JSON.stringify(doc)}\n`);
      const v = await runCli(["verify", out, "--jwks", jwksFile]);
      expect(v.code).toBe(1);
      expect(v.stderr).toContain(`${member}: changed (SHA-256`);
      expect(v.stderr).toContain("verification FAILED");
    },
  );

  it("the key may come from an environment variable; the bundle holds no private key member", async () => {
    const out = join(dir, "env.idcb");
    const b = await runCli(
      ["bundle", runDir, "--key", "${IDC_TEST_CERTIFIER_KEY}", "--profile", PROFILE, "--out", out],
      {
        env: { IDC_TEST_CERTIFIER_KEY: JSON.stringify(privateJwk) },
      },
    );
    expect(b.code, b.stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    const decoded = Object.values((JSON.parse(text) as { files: Record<string, string> }).files)
      .map((s) => Buffer.from(s, "base64url").toString("utf8"))
      .join("\n");
    expect(text + decoded).not.toContain(String(privateJwk.d));
    expect(decoded).toContain("clientKey: ${IDC_DEMO_SCIM_CLIENT_KEY}");
  });

  it("a symmetric key is refused with exit 2 and a message saying why", async () => {
    const oct = join(dir, "oct.jwk");
    writeFileSync(oct, JSON.stringify({ kty: "oct", k: "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0" }));
    const b = await runCli([
      "bundle",
      runDir,
      "--key",
      oct,
      "--profile",
      PROFILE,
      "--out",
      join(dir, "x.idcb"),
    ]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("symmetric key");
    expect(b.stderr).not.toContain("c2VjcmV0");
  });

  it("verify --entity takes the key from the Entity Configuration a federation operator serves", async () => {
    const out = join(dir, "entity.idcb");
    const b = await runCli(["bundle", runDir, "--key", keyFile, "--profile", PROFILE, "--out", out]);
    expect(b.code, b.stderr).toBe(0);
    const entity = await startEntity({ jwks });
    try {
      const refused = await runCli(["verify", out, "--entity", entity.entityId]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain("IDC_HTTP_INSECURE");
      const v = await runCli(["verify", out, "--entity", entity.entityId, "--allow-insecure-http"]);
      expect(v.code, v.stderr).toBe(0);
      expect(v.stderr).toContain(`key from the jwks of ${entity.entityId}'s Entity Configuration`);
    } finally {
      await entity.close();
    }
    const stranger = await startEntity({ jwks: (await keyPair("ES256", "certifier-2026")).jwks });
    try {
      const v = await runCli(["verify", out, "--entity", stranger.entityId, "--allow-insecure-http"]);
      expect(v.code).toBe(1);
      expect(v.stderr).toContain("signature does not verify");
    } finally {
      await stranger.close();
    }
  });
});
