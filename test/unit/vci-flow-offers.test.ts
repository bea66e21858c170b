import { describe, expect, it } from "vitest";
import { offersByValue } from "../helpers/vci-profiles.js";
import { demoVci, runVciChecks } from "../helpers/vci-flow.js";

const OFFER_CHECKS = ["vci.offer.reference", "vci.offer.value"];

// Issue item 9: the grant rules hold for every offer, whatever its delivery.
describe("offers by value decide the grant rules (specs/000 Resources: Grant parameters)", () => {
  it("an issuer making only offers by value has VCI-OFFER-PRE-AUTH-CODE and VCI-OFFER-AUTH-SERVER judged", async () => {
    const r = await runVciChecks(OFFER_CHECKS, { yaml: demoVci(offersByValue) });
    expect(r.verdict["VCI-OFFER-PRE-AUTH-CODE"], r.said("VCI-OFFER-PRE-AUTH-CODE")).toBe("pass");
    expect(r.verdict["VCI-OFFER-AUTH-SERVER"], r.said("VCI-OFFER-AUTH-SERVER")).toBe("pass");
    expect(r.verdict["VCI-OFFER-MEMBERS"]).toBe("pass");
    // Only the rules of an offer by reference wait for one, saying so.
    expect(r.verdict["VCI-OFFER-URI-JSON"]).toBe("skip");
    expect(r.said("VCI-OFFER-URI-JSON")).toMatch(/came by value/);
  }, 60_000);

  it("an authorization_server in an offer by value fails VCI-OFFER-AUTH-SERVER, naming the offer", async () => {
    const r = await runVciChecks(OFFER_CHECKS, {
      yaml: demoVci(offersByValue),
      faults: ["offer-authorization-server"],
    });
    expect(r.verdict["VCI-OFFER-AUTH-SERVER"]).toBe("fail");
    expect(r.said("VCI-OFFER-AUTH-SERVER")).toMatch(/pre-authorized_code\.authorization_server/);
    expect(r.verdict["VCI-OFFER-PRE-AUTH-CODE"]).toBe("pass");
  }, 60_000);
});
