import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/engine/check.js";
import { openSuite } from "../../src/engine/in-process.js";
import type { HttpResponse } from "../../src/http/client.js";
import { refusal } from "../../suites/commands/client.js";

/** How the fake RP answers one command (its token is decoded, never verified). */
type Answer = (claims: Record<string, unknown>, n: number) => { status: number; body: unknown };

/** A Command Endpoint on 127.0.0.1 that answers every command with `answer`. */
async function fakeRp(answer: Answer): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => void (text += chunk.slice(0, 100_000)));
    req.on("end", () => {
      const token = new URLSearchParams(text).get("command_token") ?? "";
      let claims: Record<string, unknown> = {};
      try {
        claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<
          string,
          unknown
        >;
      } catch {
        // not a JWT: the answer sees no claims
      }
      const { status, body } = answer(claims, n++);
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/commands`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const unsupported = { status: 400, body: { error: "unsupported_command" } };

/** An RP that offers the Metadata Command only: every other command is unsupported_command. */
const metadataOnly: Answer = (claims) =>
  claims.command === "metadata" ? { status: 200, body: { commands_supported: ["metadata"] } } : unsupported;

/** Runs `checks` of the commands suite against the fake RP; answers their results and the sweep's leftovers. */
async function runAgainst(
  answer: Answer,
  checks: readonly string[],
): Promise<{ results: CheckResult[]; leftovers: string[] }> {
  const rp = await fakeRp(answer);
  try {
    const s = await openSuite({ suite: "commands", env: { IDC_DEMO_COMMANDS_ENDPOINT: rp.url } });
    const results: CheckResult[] = [];
    try {
      for (const id of checks) results.push(await s.run(id));
    } catch (err) {
      await s.close();
      throw err;
    }
    return { results, leftovers: await s.close() };
  } finally {
    await rp.close();
  }
}

const res = (status: number, json: unknown): HttpResponse =>
  ({ status, json, text: JSON.stringify(json), headers: {} }) as unknown as HttpResponse;

describe("refusal: a finding says whether the RP accepted or refused with the wrong error (specs/002 area A Errors)", () => {
  it("the wanted error passes", () => {
    expect(refusal("typ JWT", res(400, { error: "invalid_request" }), [400, "invalid_request"]).ok).toBe(
      true,
    );
  });
  it("another error code is a refusal with the wrong error, not an acceptance", () => {
    const r = refusal("typ JWT", res(400, { error: "unsupported_command" }), [400, "invalid_request"]);
    expect(r.ok).toBe(false);
    expect(r.details.message).toBe("typ JWT: refused, with the wrong error");
    expect(r.details.actual).toBe("refused with 400 unsupported_command, expected 400 invalid_request");
  });
  it("a 2xx is an acceptance", () => {
    const r = refusal("typ JWT", res(200, { commands_supported: [] }), [400, "invalid_request"]);
    expect(r.details.message).toMatch(/^typ JWT: accepted/);
    expect(r.details.actual).toMatch(/^accepted: answered 200/);
  });
  it("a server error is neither", () => {
    const r = refusal("x", res(500, {}), [401, "unrecognized_provider"], [400, "invalid_request"]);
    expect(r.details.message).toBe("x: not refused: a server error");
    expect(r.details.actual).toMatch(/expected 401 unrecognized_provider or 400 invalid_request$/);
  });
});

describe("commands checks against an RP with few commands (specs/002 area A)", () => {
  let onlyMetadata: { results: CheckResult[]; leftovers: string[] };
  beforeAll(async () => {
    onlyMetadata = await runAgainst(metadataOnly, ["commands.unsupported", "commands.aud-sub"]);
  }, 60_000);

  it("commands.unsupported notes no clean-up of an account the RP never created", () => {
    const check = onlyMetadata.results.find((r) => r.check === "commands.unsupported")!;
    expect(check.requirements["CMD-UNSUPPORTED"]).toBe("met");
    expect(check.notes.filter((n) => /could not delete/.test(n))).toEqual([]);
  });

  it("the sweep reports no accounts that may remain when the RP can create none", () => {
    expect(onlyMetadata.leftovers).toEqual([]);
  });

  it("aud-sub is a dependency skip when the Metadata command itself fails", async () => {
    const broken: Answer = () => ({ status: 500, body: { error: "server_error" } });
    const { results } = await runAgainst(broken, ["commands.aud-sub"]);
    const skip = results[0]!.findings.find((f) => f.requirements.includes("CMD-AUD-SUB"))!;
    expect(skip.skipKind).toBe("dependency");
    expect(skip.message).not.toMatch(/does not set aud_sub_required/);
  }, 60_000);

  it("token refusals with 400 unsupported_command read as refused with the wrong error, never as accepted", async () => {
    // The baseline metadata succeeds; every later command is refused with the wrong code.
    const wrongCode: Answer = (claims, n) =>
      n === 0 && claims.command === "metadata"
        ? { status: 200, body: { commands_supported: [] } }
        : unsupported;
    const { results } = await runAgainst(wrongCode, ["commands.token-header"]);
    const failed = results[0]!.findings.filter((f) => f.outcome === "violated");
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) {
      expect(f.message).toMatch(/refused, with the wrong error/);
      expect(f.actual).toMatch(/^refused with 400 unsupported_command, expected 400 invalid_request$/);
      expect(`${f.message} ${f.actual ?? ""}`).not.toMatch(/accepted/);
    }
  }, 60_000);
});
