import { describe, expect, it } from "vitest";
import { runCheck, type CheckEnvironment } from "../../src/engine/check-runner.js";
import { defineCheck } from "../../src/engine/check.js";
import { DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";

const env: CheckEnvironment = {
  suite: "unit",
  section: "§1",
  profile: {},
  features: { offered: true },
  probes: {},
  client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true },
  secrets: [{ value: "very-secret-value", name: "UNIT_SECRET" }],
  seed: 1,
  runId: "r",
  provided: {},
};

describe("check outcomes (design: Check, Verdict, honesty rule 4)", () => {
  it("records met and violated requirements with expected and actual", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.a",
        title: "t",
        requirements: ["U-A-ONE", "U-A-TWO"],
        async run(c) {
          c.check("U-A-ONE", true);
          c.check("U-A-TWO", false, { expected: "200", actual: "500" });
        },
      }),
      env,
    );
    expect(r.requirements).toEqual({ "U-A-ONE": "met", "U-A-TWO": "violated" });
    expect(r.findings).toMatchObject([
      { requirements: ["U-A-TWO"], outcome: "violated", expected: "200", actual: "500" },
    ]);
  });

  it("partly: a requirement part of whose subject was not judged never passes, before or after a met item; a violation stands", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.partly",
        title: "t",
        requirements: ["U-P-BEFORE", "U-P-AFTER", "U-P-ALONE", "U-P-BROKEN"],
        async run(c) {
          c.partly("U-P-BEFORE", "plain http allowed (uri http://a)");
          c.check("U-P-BEFORE", true);
          c.check("U-P-AFTER", true);
          c.partly("U-P-AFTER", "plain http allowed (uri http://b)");
          c.partly("U-P-ALONE", "plain http allowed (uri http://c)");
          c.partly("U-P-BROKEN", "plain http allowed (uri http://d)");
          c.check("U-P-BROKEN", false, { expected: "https", actual: "ftp://e" });
        },
      }),
      env,
    );
    expect(r.requirements).toEqual({
      "U-P-BEFORE": "skipped",
      "U-P-AFTER": "skipped",
      "U-P-ALONE": "skipped",
      "U-P-BROKEN": "violated",
    });
    expect(r.findings.map((f) => [f.requirements[0], f.outcome, f.skipKind, f.message])).toEqual([
      ["U-P-BROKEN", "violated", undefined, "not met"],
      ["U-P-BEFORE", "skipped", "not-exercised", "partly observed: plain http allowed (uri http://a)"],
      ["U-P-AFTER", "skipped", "not-exercised", "partly observed: plain http allowed (uri http://b)"],
      ["U-P-ALONE", "skipped", "not-exercised", "plain http allowed (uri http://c)"],
    ]);
  });

  it("skipOnly skips one requirement and goes on; a later observation overtakes it; actual text is capped", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.skiponly",
        title: "t",
        requirements: ["U-S-ONE", "U-S-TWO", "U-S-THREE"],
        async run(c) {
          c.skipOnly("U-S-ONE", "not offered: no such command", "not-offered");
          c.skipOnly("U-S-TWO", "not yet");
          c.check("U-S-TWO", true);
          c.check("U-S-THREE", false, { expected: "x", actual: "y".repeat(10_000) });
        },
      }),
      env,
    );
    expect(r.requirements).toEqual({ "U-S-ONE": "skipped", "U-S-TWO": "met", "U-S-THREE": "violated" });
    expect(r.findings.map((f) => [f.requirements[0], f.outcome, f.skipKind])).toEqual([
      ["U-S-ONE", "skipped", "not-offered"],
      ["U-S-THREE", "violated", undefined],
    ]);
    expect(r.findings[1]?.actual?.length).toBeLessThan(4100);
  });

  it("a requirement the check never decided is an error, never a pass", async () => {
    const r = await runCheck(
      defineCheck({ id: "unit.b", title: "t", requirements: ["U-B-ONE"], async run() {} }),
      env,
    );
    expect(r.requirements["U-B-ONE"]).toBe("errored");
    expect(r.findings[0]?.message).toMatch(/without deciding/);
  });

  it("require() stops the check; what it had not decided is skipped as a dependency", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.c",
        title: "t",
        requirements: ["U-C-ONE", "U-C-TWO"],
        async run(c) {
          c.require("U-C-ONE", false, { expected: "x", actual: "y" });
          c.check("U-C-TWO", true);
        },
      }),
      env,
    );
    expect(r.requirements).toEqual({ "U-C-ONE": "violated", "U-C-TWO": "skipped" });
    expect(r.findings.find((f) => f.outcome === "skipped")?.skipKind).toBe("dependency");
  });

  it("skips with the reason: an undeclared feature, a missing probe", async () => {
    const feature = await runCheck(
      defineCheck({ id: "unit.d", title: "t", requirements: ["U-D-ONE"], feature: "absent", async run() {} }),
      env,
    );
    expect(feature.requirements["U-D-ONE"]).toBe("skipped");
    expect(feature.findings[0]).toMatchObject({ skipKind: "not-declared" });
    expect(feature.findings[0]?.message).toContain("suites.unit.features.absent");
    const probe = await runCheck(
      defineCheck({
        id: "unit.e",
        title: "t",
        requirements: ["U-E-ONE"],
        probe: "revocation",
        async run() {},
      }),
      env,
    );
    expect(probe.findings[0]).toMatchObject({ skipKind: "needs-probe" });
    expect(probe.findings[0]?.message).toMatch(/^needs probe/);
    // A probe declared `false`: the target has nothing it could show, so "not offered".
    const none = await runCheck(
      defineCheck({
        id: "unit.f",
        title: "t",
        requirements: ["U-F-ONE"],
        probe: "revocation",
        async run() {},
      }),
      { ...env, probes: { revocation: false } },
    );
    expect(none.findings[0]).toMatchObject({ skipKind: "not-offered" });
    expect(none.findings[0]?.message).toContain("suites.unit.probes.revocation: false");
  });

  it("a thrown exception is a harness error with its message, and secrets are redacted from it", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.f",
        title: "t",
        requirements: ["U-F-ONE"],
        async run() {
          throw new Error("boom with very-secret-value inside");
        },
      }),
      env,
    );
    expect(r.requirements["U-F-ONE"]).toBe("errored");
    expect(r.findings[0]?.message).toBe("harness fault: boom with ${UNIT_SECRET} inside");
  });

  it("deciding a requirement the check does not name is a harness error", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.g",
        title: "t",
        requirements: ["U-G-ONE"],
        async run(c) {
          c.check("U-OTHER-ONE", true);
        },
      }),
      env,
    );
    expect(r.requirements["U-G-ONE"]).toBe("errored");
    expect(r.findings[0]?.message).toMatch(/does not name/);
  });
});

describe("a check that breaks off (review of the core)", () => {
  it("a requirement met before the check errored is an error, not a pass", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.h",
        title: "t",
        requirements: ["U-H-ONE"],
        async run(c) {
          c.check("U-H-ONE", true);
          throw new Error("second observation timed out");
        },
      }),
      env,
    );
    expect(r.requirements["U-H-ONE"]).toBe("errored");
  });
});
