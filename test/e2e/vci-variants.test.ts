import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, request } from "undici";
import { describe, expect, it } from "vitest";
import { startVciTarget } from "../../targets/vci/start.js";
import { ROOT, runCli, tempDir, verdicts, writeProfile } from "../helpers/cli.js";
import { walletDelivery } from "../helpers/vci-profiles.js";

/** The demo profile with `replace` applied: the same run with one setting changed. */
function demoWith(replace: (yaml: string) => string): string {
  return replace(readFileSync(join(ROOT, "profiles", "demo", "vci.yaml"), "utf8"));
}

async function runAgainst(
  identifiers: "std" | "openid",
  yaml: string,
): Promise<{
  code: number | null;
  stdout: string;
  stderr: string;
  v: Record<string, string>;
  texts: string[];
}> {
  const t = await startVciTarget({ faults: [], identifiers });
  try {
    const dir = tempDir();
    const cli = await runCli(["run", writeProfile(dir, yaml), "--out", join(dir, "out")], {
      env: t.env,
      timeoutMs: 120_000,
    });
    const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8")) as {
      requirements: { id: string; verdict: string; text: string }[];
      checks: { title: string }[];
    };
    // What the report says of each rule: requirement texts and check titles.
    const texts = [...results.requirements.map((r) => r.text), ...results.checks.map((c) => c.title)];
    return { code: cli.code, stdout: cli.stdout, stderr: cli.stderr, v: verdicts(results), texts };
  } finally {
    await t.close();
  }
}

describe("Credential issuance profile variants (issue: credential issuance suite §2, §4, §7)", () => {
  it("with the openid identifier set, an issuer using the published names passes, and a std profile against it does not find its metadata", async () => {
    const openid = await runAgainst(
      "openid",
      demoWith((y) => y.replace("identifiers: std", "identifiers: openid")),
    );
    expect(openid.code, openid.stderr).toBe(0);
    expect(
      Object.entries(openid.v).filter(([, x]) => x !== "pass" && x !== "skip"),
      openid.stderr,
    ).toEqual([]);
    expect(openid.v["VCI-AUTHZ-FLOW"]).toBe("pass");
    expect(openid.v["VCI-META-SIGNED-TYP"]).toBe("pass");
    // Texts, titles and the progress lines name the run's identifier set, never the std names.
    const std = /std-credential|std_credential|stdvci-|std4vci-/;
    expect(openid.texts.filter((t) => std.test(t))).toEqual([]);
    expect(openid.texts.some((t) => t.includes("openid-credential-issuer"))).toBe(true);
    expect(`${openid.stdout}\n${openid.stderr}`.split("\n").filter((l) => std.test(l))).toEqual([]);
    const stdRun = await runAgainst(
      "openid",
      demoWith((y) => y),
    );
    expect(stdRun.code).toBe(1);
    expect(stdRun.v["VCI-META-WELL-KNOWN"]).toBe("fail");
  });

  it("offers delivered to the mock wallet's Credential Offer Endpoint are used like offers in the hook's response", async () => {
    // Every kind's hook body names the wallet's endpoint; the reference issuer then sends it there.
    const yaml = demoWith(walletDelivery);
    expect(yaml.match(/deliver_to/g)).toHaveLength(5);
    const r = await runAgainst("std", yaml);
    expect(r.code, r.stderr).toBe(0);
    expect(r.v["VCI-OFFER-ONE-PARAM"]).toBe("pass");
    expect(r.v["VCI-TOKEN-TX-WRONG"]).toBe("pass");
    expect(r.v["VCI-CRED-ISSUE"]).toBe("pass");
  });

  it("with one fixed offer, the issuance check uses it and the checks needing fresh offers say why they were skipped", async () => {
    const t = await startVciTarget({ faults: [] });
    try {
      const ca = readFileSync(t.env.IDC_DEMO_VCI_CA_FILE!, "utf8");
      const hook = await request(t.env.IDC_DEMO_VCI_HOOK_URL!, {
        method: "POST",
        headers: {
          authorization: `Bearer ${t.env.IDC_DEMO_VCI_HOOK_TOKEN}`,
          "content-type": "application/json",
        },
        body: "{}",
        dispatcher: new Agent({ connect: { ca } }),
      });
      const { offer } = (await hook.body.json()) as { offer: string };
      const yaml = demoWith((y) =>
        y.replace(
          /    offers:\n[\s\S]*?(?=    metadataKeys:)/,
          `    offers:\n      fixed:\n        offer: ${JSON.stringify(offer)}\n`,
        ),
      );
      const dir = tempDir();
      const cli = await runCli(["run", writeProfile(dir, yaml), "--out", join(dir, "out")], {
        env: t.env,
        timeoutMs: 120_000,
      });
      const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8")) as {
        requirements: { id: string; verdict: string; findings: { message: string }[] }[];
      };
      const v = verdicts(results as Parameters<typeof verdicts>[0]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(v["VCI-CRED-ISSUE"]).toBe("pass");
      expect(v["VCI-TOKEN-CODE-REPLAY"]).toBe("skip");
      const why =
        results.requirements.find((r) => r.id === "VCI-TOKEN-CODE-REPLAY")?.findings[0]?.message ?? "";
      expect(why).toMatch(/one fixed offer/);
    } finally {
      await t.close();
    }
  });
});
