import { describe, expect, it } from "vitest";
import type { ObservedExchange } from "../../src/engine/observer.js";
import { federationObservers, TAG } from "../../suites/federation/observers.js";
import { federationProfile } from "../../suites/federation/profile.js";

const profile = federationProfile.parse({ baseUrl: "https://ta.example" });

/** A collection answer as the observers see it. */
function ex(status: number, body: string, o: { type?: string; tags?: string[] } = {}): ObservedExchange {
  const headers = { "content-type": o.type ?? "application/json" };
  let json: unknown;
  let jsonError: string | undefined;
  try {
    json = JSON.parse(body);
  } catch {
    jsonError = "not JSON";
  }
  return {
    check: "unit",
    label: "collection",
    tags: o.tags ?? [TAG.collection],
    method: "GET",
    url: new URL("https://ta.example/collection"),
    requestHeaders: {},
    status,
    headers,
    header: (n) => headers[n.toLowerCase() as "content-type"],
    text: body,
    json,
    jsonError,
  };
}

const judge = (requirement: string, e: ObservedExchange): string | undefined => {
  const o = federationObservers.find((x) => x.requirement === requirement)!;
  if (!o.applies(e, profile)) return "n/a";
  return o.judge(e, profile)?.message;
};

describe("specs/001 Errors: every collection error answer", () => {
  it("is application/json with error and error_description strings", () => {
    const ok = ex(404, '{"error":"page_not_found","error_description":"gone"}');
    expect(judge("FED-COLL-ERROR-FORMAT", ok)).toBeUndefined();
    expect(judge("FED-COLL-ERROR-FORMAT", ex(404, '{"error":"page_not_found"}'))).toMatch(
      /no error_description/,
    );
    expect(judge("FED-COLL-ERROR-FORMAT", ex(500, "<h1>oops</h1>", { type: "text/html" }))).toMatch(
      /not served as application\/json/,
    );
    expect(judge("FED-COLL-ERROR-FORMAT", ex(200, '{"entities":[]}'))).toBe("n/a");
  });

  it("has the status the table gives its code", () => {
    expect(judge("FED-COLL-ERROR-STATUS", ex(404, '{"error":"page_not_found"}'))).toBeUndefined();
    expect(judge("FED-COLL-ERROR-STATUS", ex(400, '{"error":"page_not_found"}'))).toMatch(/with 400/);
    expect(judge("FED-COLL-ERROR-STATUS", ex(400, '{"error":"invalid_trust_anchor"}'))).toMatch(/with 400/);
    expect(judge("FED-COLL-ERROR-STATUS", ex(404, '{"error":"unsupported_claim"}'))).toMatch(/with 404/);
    // A code the collection table does not name is not judged here.
    expect(judge("FED-COLL-ERROR-STATUS", ex(401, '{"error":"invalid_client"}'))).toBeUndefined();
  });
});

describe("specs/001 Endpoints: Entity collection: valid parameters are answered or refused as unsupported", () => {
  const valid = { tags: [TAG.collection, TAG.collectionValid] };
  it("200 and unsupported_parameter pass; a 500, another code or a 401 are told apart", () => {
    expect(judge("FED-COLL-UNSUPPORTED-PARAM", ex(200, '{"entities":[]}', valid))).toBeUndefined();
    expect(
      judge("FED-COLL-UNSUPPORTED-PARAM", ex(400, '{"error":"unsupported_parameter"}', valid)),
    ).toBeUndefined();
    expect(judge("FED-COLL-UNSUPPORTED-PARAM", ex(500, '{"error":"server_error"}', valid))).toMatch(
      /answered 500 server_error/,
    );
    expect(judge("FED-COLL-UNSUPPORTED-PARAM", ex(404, '{"error":"page_not_found"}', valid))).toMatch(
      /answered 404/,
    );
    expect(judge("FED-COLL-UNSUPPORTED-PARAM", ex(401, '{"error":"invalid_client"}', valid))).toBe("n/a");
    // A probe with a parameter meant to be refused is not tagged valid.
    expect(judge("FED-COLL-UNSUPPORTED-PARAM", ex(404, '{"error":"page_not_found"}'))).toBe("n/a");
  });
});

describe("specs/001 Entity Info object: entity_id on every Entity Info of every answer", () => {
  it("passes Entity Infos with entity_id, names one without, and leaves other answers alone", () => {
    const good = '{"entities":[{"entity_id":"https://a.example"},{"entity_id":"https://b.example"}]}';
    expect(judge("FED-COLL-ENTITY-ID", ex(200, good))).toBeUndefined();
    // An empty page holds no Entity Info: nothing to judge.
    expect(judge("FED-COLL-ENTITY-ID", ex(200, '{"entities":[]}'))).toBe("n/a");
    expect(
      judge(
        "FED-COLL-ENTITY-ID",
        ex(200, '{"entities":[{"entity_id":"https://a.example"},{"entity_types":[]}]}'),
      ),
    ).toMatch(/without entity_id/);
    expect(judge("FED-COLL-ENTITY-ID", ex(200, '{"entities":[{"entity_id":""}]}'))).toMatch(
      /without entity_id/,
    );
    expect(judge("FED-COLL-ENTITY-ID", ex(200, '{"entities":[{"entity_id":7}]}'))).toMatch(
      /without entity_id/,
    );
    // No entities array (FED-COLL-OK's), an error answer, another endpoint: not this rule's.
    expect(judge("FED-COLL-ENTITY-ID", ex(200, '{"entities":null}'))).toBe("n/a");
    expect(judge("FED-COLL-ENTITY-ID", ex(404, '{"error":"page_not_found"}'))).toBe("n/a");
    expect(judge("FED-COLL-ENTITY-ID", ex(200, '{"entities":[{}]}', { tags: [TAG.list] }))).toBe("n/a");
  });
});
