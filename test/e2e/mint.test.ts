import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  EmbeddedJWK,
  importJWK,
  jwtVerify,
  type JWK,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningTarget } from "../../src/engine/target.js";
import { OP_ISSUER, startCommandsTarget } from "../../targets/commands/start.js";
import { ROOT, runCli, tempDir, writeProfile } from "../helpers/cli.js";

const DEMO_COMMANDS = join(ROOT, "profiles", "demo", "commands.yaml");
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi"];

function claimsFile(dir: string, claims: Record<string, unknown>, name = "claims.json"): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(claims));
  return p;
}

/** The stdout of a minting command: exactly one compact JWS. */
function oneToken(stdout: string): string {
  const lines = stdout.split("\n").filter((l) => l !== "");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  return lines[0]!;
}

describe("idconform mock op --sign: a replayable Command Token (specs/002 area A Command Token; issue 12 item 6)", () => {
  let target: RunningTarget;
  let dir: string;
  let opKey: JWK;
  beforeAll(async () => {
    target = await startCommandsTarget({ faults: [] });
    dir = tempDir("idc-mint-");
    opKey = JSON.parse(target.env.IDC_DEMO_COMMANDS_OP_KEY!) as JWK;
  });
  afterAll(async () => {
    await target.close();
  });

  it("signs with the profile's OP key as the run does, fills iss, aud, client_id, iat, exp and jti, and the RP accepts it", async () => {
    const file = claimsFile(dir, {
      command: "activate",
      sub: "mint-1",
      tenant: "mint-tenant",
      given_name: "Ada",
      email: "ada@example.com",
    });
    const cli = await runCli(["mock", "op", "--sign", file, "--profile", DEMO_COMMANDS], { env: target.env });
    expect(cli.code, cli.stderr).toBe(0);
    const token = oneToken(cli.stdout);
    const { d: _d, ...publicJwk } = opKey;
    const { payload, protectedHeader } = await jwtVerify(token, await importJWK(publicJwk, opKey.alg), {
      issuer: OP_ISSUER,
      audience: target.env.IDC_DEMO_COMMANDS_ENDPOINT!,
      typ: "command+jwt",
      algorithms: [opKey.alg!],
    });
    expect(protectedHeader).toEqual({ alg: opKey.alg, typ: "command+jwt", kid: opKey.kid });
    expect(payload).toMatchObject({
      client_id: target.env.IDC_DEMO_COMMANDS_CLIENT_ID,
      command: "activate",
      sub: "mint-1",
      tenant: "mint-tenant",
      given_name: "Ada",
      email: "ada@example.com",
    });
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(30);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    // The command prints the token, never the key it signed with.
    for (const m of PRIVATE_MEMBERS) {
      const v = opKey[m as keyof JWK];
      if (typeof v === "string") expect(cli.stdout + cli.stderr).not.toContain(v);
    }
    const send = async (t: string) => {
      const res = await fetch(target.env.IDC_DEMO_COMMANDS_ENDPOINT!, {
        method: "POST",
        body: new URLSearchParams({ command_token: t }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await send(token)).toMatchObject({
      status: 200,
      body: { sub: "mint-1", account_state: "active" },
    });
    // A token is single-use (its jti); a second mint is a fresh one the RP takes.
    expect((await send(token)).status).toBe(400);
    const again = await runCli(
      [
        "mock",
        "op",
        "--sign",
        claimsFile(dir, { command: "suspend", sub: "mint-1", tenant: "mint-tenant" }, "s.json"),
        "--profile",
        DEMO_COMMANDS,
      ],
      { env: target.env },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(await send(oneToken(again.stdout))).toMatchObject({
      status: 200,
      body: { sub: "mint-1", account_state: "suspended" },
    });
  });

  it("keeps every claim the file gives (iss, jti, iat, exp included) and leaves tenant out when nothing gives one", async () => {
    const file = claimsFile(dir, {
      command: "metadata",
      iss: "https://other-op.example",
      jti: "my-jti",
      iat: 1_700_000_000,
      exp: 1_700_000_600,
    });
    const cli = await runCli(["mock", "op", "--sign", file, "--profile", DEMO_COMMANDS], { env: target.env });
    expect(cli.code, cli.stderr).toBe(0);
    const { d: _d, ...publicJwk } = opKey;
    const { payload } = await jwtVerify(oneToken(cli.stdout), await importJWK(publicJwk, opKey.alg), {
      currentDate: new Date(1_700_000_100_000),
    });
    expect(payload).toEqual({
      iss: "https://other-op.example",
      aud: target.env.IDC_DEMO_COMMANDS_ENDPOINT,
      client_id: target.env.IDC_DEMO_COMMANDS_CLIENT_ID,
      iat: 1_700_000_000,
      exp: 1_700_000_600,
      jti: "my-jti",
      command: "metadata",
    });
    expect(cli.stderr).toContain("no tenant");
  });

  it("refuses in one line (exit 2) when the profile has no OP key, naming suites.commands.op.signingKey", async () => {
    const profile = writeProfile(
      dir,
      `name: no-key
options:
  allowInsecureHttp: true
suites:
  commands:
    baseUrl: \${IDC_DEMO_COMMANDS_ENDPOINT}
    clientId: \${IDC_DEMO_COMMANDS_CLIENT_ID}
    op:
      issuer: \${IDC_DEMO_COMMANDS_OP_ISSUER}
`,
      "no-key.yaml",
    );
    const cli = await runCli(
      ["mock", "op", "--sign", claimsFile(dir, { command: "activate", sub: "x" }), "--profile", profile],
      { env: target.env },
    );
    expect(cli.code).toBe(2);
    expect(cli.stdout).toBe("");
    const lines = cli.stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error IDC_USAGE: .*no-key\.yaml sets no suites\.commands\.op\.signingKey/);
    expect(lines[0]).toContain("set suites.commands.op.signingKey");
  });

  it("refuses a token whose issuer the run would make per run, a claims file without command, and --sign on another role", async () => {
    const noIssuer = writeProfile(
      dir,
      `name: no-issuer
options:
  allowInsecureHttp: true
suites:
  commands:
    baseUrl: \${IDC_DEMO_COMMANDS_ENDPOINT}
    clientId: \${IDC_DEMO_COMMANDS_CLIENT_ID}
    op:
      signingKey: \${IDC_DEMO_COMMANDS_OP_KEY}
`,
      "no-issuer.yaml",
    );
    const claims = claimsFile(dir, { command: "activate", sub: "x" });
    const iss = await runCli(["mock", "op", "--sign", claims, "--profile", noIssuer], { env: target.env });
    expect(iss.code).toBe(2);
    expect(iss.stderr).toContain("set suites.commands.op.issuer (or give iss in the claims file)");
    const noCommand = await runCli(
      ["mock", "op", "--sign", claimsFile(dir, { sub: "x" }, "n.json"), "--profile", DEMO_COMMANDS],
      { env: target.env },
    );
    expect(noCommand.code).toBe(2);
    expect(noCommand.stderr).toContain('names no command: give "command"');
    const role = await runCli(["mock", "wallet", "--sign", claims, "--profile", DEMO_COMMANDS], {
      env: target.env,
    });
    expect(role.code).toBe(2);
    expect(role.stderr).toContain("it goes with mock op, not mock wallet");
    for (const r of [iss, noCommand, role]) expect(r.stdout).toBe("");
  });
});

describe("idconform mock wallet --proof: a jwt key proof as the run's wallet signs it (specs/000 Credential Request: proofs; public-spec-facts §1 F.1)", () => {
  const vciProfile = (identifiers: string) => `name: mint-vci
suites:
  vci:
    baseUrl: https://issuer.example/tenant-1
    identifiers: ${identifiers}
    clientId: my-wallet
    offers:
      fixed:
        offer: "openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.example%2Fo%2F1"
`;

  it("has the identifier set's typ, the fresh key's public JWK in the header, aud, iss, iat and nonce, and prints that JWK", async () => {
    const profile = writeProfile(tempDir("idc-mint-"), vciProfile("openid"));
    const cli = await runCli([
      "mock",
      "wallet",
      "--proof",
      "--profile",
      profile,
      "--aud",
      "https://issuer.example/other",
      "--nonce",
      "c-nonce-1",
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const proof = oneToken(cli.stdout);
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: "openid4vci-proof+jwt",
      audience: "https://issuer.example/other",
      issuer: "my-wallet",
      algorithms: ["ES256"],
    });
    expect(Object.keys(protectedHeader).sort()).toEqual(["alg", "jwk", "typ"]);
    const jwk = protectedHeader.jwk!;
    expect(jwk).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
    for (const m of PRIVATE_MEMBERS) expect(jwk).not.toHaveProperty(m);
    expect(payload).toEqual({
      aud: "https://issuer.example/other",
      iss: "my-wallet",
      nonce: "c-nonce-1",
      iat: expect.any(Number) as number,
    });
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(30);
    // The key is made per run, as the run's wallet makes it: the command says so and prints its public half.
    expect(cli.stderr).toContain("makes its holder key per run, and so did this command");
    expect(cli.stderr).toContain(JSON.stringify(jwk));
    expect(cli.stderr).toContain(await calculateJwkThumbprint(jwk));
    expect(cli.stderr).not.toMatch(/"d":/);
  });

  it("takes aud from the profile's Credential Issuer and signs EdDSA with the std identifiers when asked; no nonce without --nonce", async () => {
    const profile = writeProfile(tempDir("idc-mint-"), vciProfile("std"));
    const cli = await runCli(["mock", "wallet", "--proof", "--profile", profile, "--alg", "EdDSA"]);
    expect(cli.code, cli.stderr).toBe(0);
    const proof = oneToken(cli.stdout);
    expect(decodeProtectedHeader(proof)).toMatchObject({ alg: "EdDSA", typ: "std4vci-proof+jwt" });
    const { payload } = await jwtVerify(proof, EmbeddedJWK, { audience: "https://issuer.example/tenant-1" });
    expect(payload).not.toHaveProperty("nonce");
    expect(cli.stderr).toContain("no --nonce");
    const bad = await runCli(["mock", "wallet", "--proof", "--profile", profile, "--alg", "HS256"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--alg: the wallet signs proofs with ES256 or EdDSA");
  });

  it("needs a vci section and keeps idconform mock <role> [--port n] apart from minting", async () => {
    const commandsOnly = writeProfile(
      tempDir("idc-mint-"),
      `name: commands-only
suites:
  commands:
    baseUrl: https://rp.example/commands
    clientId: rp
`,
    );
    const noVci = await runCli(["mock", "wallet", "--proof", "--profile", commandsOnly]);
    expect(noVci.code).toBe(2);
    expect(noVci.stderr).toContain(`${commandsOnly} has no suites.vci section`);
    const port = await runCli(["mock", "wallet", "--proof", "--port", "0"]);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain("--port: minting a token serves nothing");
    const stray = await runCli(["mock", "wallet", "--nonce", "n"]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("--nonce goes with --proof (mock wallet)");
  });
});

describe("idconform mock <role> [--port n] still serves the mock", () => {
  it("starts the mock OP on loopback, serves its discovery, and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [join(ROOT, "bin", "idconform.js"), "mock", "op", "--port", "0"], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on("error", reject);
        child.on("close", (code) => reject(new Error(`mock op ended (${code}) before listening: ${out}`)));
      });
      const res = await fetch(`${url}/.well-known/openid-configuration`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ issuer: url, jwks_uri: `${url}/jwks` });
    } finally {
      const closed = new Promise((resolve) => child.once("close", resolve));
      child.kill("SIGTERM");
      await closed;
    }
  });
});
