import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Results } from "../../src/report/results.js";
import { runCli, tempDir } from "../helpers/cli.js";

describe("MUST coverage of the demo runs (issue 12 item 1)", () => {
  it("the SCIM demo exercises every MUST that applies: 100 %, certifiable but for the demo, exit 0", async () => {
    const out = join(tempDir(), "demo");
    const res = await runCli(["demo", "--suite", "scim", "--out", out], { timeoutMs: 120_000 });
    expect(res.code, res.stderr).toBe(0);
    const r = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as Results;
    const must = r.coverage.must!;
    expect(must.notExercised).toEqual([]);
    expect(must.decided).toBe(must.applicable);
    expect(must.applicable).toBe(r.requirements.filter((q) => q.level === "MUST").length - must.notOffered);
    expect(r.run.notCertifiable).toEqual([
      "demo run against idconform's own reference target",
      "plain http was allowed (options.allowInsecureHttp: true)",
    ]);
    expect(res.stderr).toContain(`MUST coverage: ${must.decided}/${must.applicable} (100 %) decided`);
    expect(res.stderr).not.toContain("NOT EXERCISED");
    expect(res.stderr).toMatch(/^exit 0: every selected MUST requirement passed$/m);
  });
});
