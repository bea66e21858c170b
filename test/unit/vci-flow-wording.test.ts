import { describe, expect, it } from "vitest";
import { renderWording } from "../../src/engine/requirement.js";
import { identifierWording } from "../../src/protocols/vci.js";
import { resultsProblems } from "../../src/report/validate.js";
import { demoVci, runVciChecks } from "../helpers/vci-flow.js";

const STD = /std-credential-issuer|std_credential|stdvci-issuer-metadata\+jwt|std4vci-proof\+jwt/;

// Issue item 12: the report names what the target was judged by.
describe("texts follow the run's identifier set (specs/000; specs/README: published names)", () => {
  it("renders each std identifier in the openid set, and the std set leaves texts as they are", () => {
    const openid = identifierWording("openid");
    expect(
      renderWording(
        "GET of /.well-known/std-credential-issuer; type std_credential; typ stdvci-issuer-metadata+jwt and std4vci-proof+jwt",
        openid,
      ),
    ).toBe(
      "GET of /.well-known/openid-credential-issuer; type openid_credential; typ openidvci-issuer-metadata+jwt and openid4vci-proof+jwt",
    );
    const text = "authorization_details of type std_credential";
    expect(renderWording(text, identifierWording("std"))).toBe(text);
    expect(renderWording(renderWording(text, openid), openid)).toBe(
      "authorization_details of type openid_credential",
    );
    expect(renderWording(text, undefined)).toBe(text);
  });

  it("under identifiers: openid, requirement texts and check titles say the published names, and results.json keeps the set", async () => {
    // The texts are rendered whatever the verdicts (the reference target speaks std here).
    const r = await runVciChecks(["vci.metadata.signed", "vci.token.authorization-details"], {
      yaml: demoVci((y) => y.replace("identifiers: std", "identifiers: openid")),
    });
    expect(resultsProblems(JSON.parse(JSON.stringify(r.results)))).toEqual([]);
    expect(r.results.run.suites[0]?.wording?.set).toBe("openid");
    const text = (id: string): string =>
      [...r.results.requirements, ...r.results.coverage.notRun].find((x) => x.id === id)?.text ?? "";
    expect(text("VCI-TOKEN-AUTH-DETAILS")).toContain("openid_credential");
    expect(text("VCI-META-SIGNED-TYP")).toContain("openidvci-issuer-metadata+jwt");
    expect(text("VCI-META-WELL-KNOWN")).toContain("/.well-known/openid-credential-issuer");
    const texts = [...r.results.requirements, ...r.results.coverage.notRun, ...r.results.coverage.uncovered];
    expect(texts.filter((x) => STD.test(x.text)).map((x) => x.id)).toEqual([]);
    const titles = r.results.checks.map((c) => c.title);
    expect(titles.filter((t) => STD.test(t))).toEqual([]);
    expect(titles.join("\n")).toContain("openidvci-issuer-metadata+jwt");
    // Sources keep the document's own words.
    expect(r.results.requirements.find((x) => x.id === "VCI-META-SIGNED-TYP")?.source).toContain(
      "stdvci-issuer-metadata+jwt",
    );
  }, 60_000);
});
