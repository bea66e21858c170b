import { describe, expect, it } from "vitest";
import { runVciChecks } from "../helpers/vci-flow.js";

/** The skip findings of a requirement in a run: message and kind. */
const skips = (r: Awaited<ReturnType<typeof runVciChecks>>, id: string) =>
  r.checks.flatMap((c) => c.findings).filter((f) => f.outcome === "skipped" && f.requirements.includes(id));

// Issue item 11: what the issuer does wrong is a finding about the issuer.
describe("the issuer's failures are the issuer's (specs/000 Rules 4; Authentication 4; Notification Endpoint)", () => {
  it("an authorization endpoint answering a valid request with an error page fails VCI-AUTHZ-FLOW, showing the page", async () => {
    const r = await runVciChecks(["vci.authorization-code"], {
      faults: ["authorize-issuer-state-error-page"],
    });
    expect(r.verdict["VCI-AUTHZ-FLOW"], r.said("VCI-AUTHZ-FLOW")).toBe("fail");
    expect(r.said("VCI-AUTHZ-FLOW")).toMatch(
      /HTTP 400: title "Authorization failed", text .*issuer_state is unknown or expired/,
    );
    // The answer is the finding's evidence.
    const f = r.checks[0]!.findings.find((x) => x.requirements.includes("VCI-AUTHZ-FLOW"))!;
    expect(f.exchanges.length).toBe(1);
    expect(r.checks[0]!.exchanges[f.exchanges[0]!]?.response?.status).toBe(400);
  }, 60_000);

  it("a token typed DPoP without a DPoP proof that works as a Bearer token is judged by its lifetime", async () => {
    const r = await runVciChecks(["vci.token.pre-authorized"], { faults: ["token-dpop-unbound"] });
    expect(r.verdict["VCI-TOKEN-LIFETIME"], r.said("VCI-TOKEN-LIFETIME")).toBe("fail");
    expect(r.said("VCI-TOKEN-LIFETIME")).toMatch(
      /token_type DPoP, though the Wallet sent no DPoP proof.*expires_in 3600/,
    );
    expect(r.verdict["VCI-TOKEN-PRE-AUTH"]).toBe("pass");
  }, 60_000);

  it("a numeric notification_id is a malformed one (VCI-CRED-RESPONSE-SHAPE), not an absent one", async () => {
    const r = await runVciChecks(["vci.notification"], { faults: ["notification-id-number"] });
    const [skip] = skips(r, "VCI-NOTIF-OK");
    expect(skip?.skipKind).toBe("dependency");
    expect(skip?.message).toMatch(/notification_id is \d+, not a string.*VCI-CRED-RESPONSE-SHAPE/);
  }, 60_000);
});
