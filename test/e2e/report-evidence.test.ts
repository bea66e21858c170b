import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDemoProfile, verdicts } from "../helpers/cli.js";

describe("report.html evidence a person can read and replay (issue 12 item 6)", () => {
  it("decodes the Command Token of a failing exchange, withholds its signature and explains it", async () => {
    const { cli, results, dir } = await runDemoProfile(
      "commands",
      ["expired-accepted"],
      ["--grep", "CMD-TOKEN-EXPIRED"],
    );
    expect(cli.code, cli.stderr).toBe(1);
    expect(verdicts(results)["CMD-TOKEN-EXPIRED"]).toBe("fail");
    const html = readFileSync(join(dir, "out", "report.html"), "utf8");
    // The token of the failing exchange, decoded beside its raw value: header, claims, dates.
    expect(html).toMatch(/<b>JWS<\/b> in request body field command_token · alg [A-Z0-9]+/);
    expect(html).toContain("signature redacted as ${COMMAND_TOKEN_SIGNATURE}");
    expect(html).toMatch(/<p>claims<\/p><pre>\{\n {2}&#34;iss&#34;/);
    expect(html).toMatch(/<p class="times">iat [0-9-]+T[0-9:.]+Z · exp /);
    // Its placeholder is explained, naming the command that mints a fresh one.
    const section = html.slice(html.indexOf('<section id="placeholders">'));
    expect(section).toContain("<code>${COMMAND_TOKEN_SIGNATURE}</code>");
    expect(section).toContain("idconform mock op --sign claims.json --profile");
  });
});
