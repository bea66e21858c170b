import { describe, expect, it } from "vitest";
import {
  CAEP_EVENT_BASE,
  CAEP_EVENT_NAMES,
  COMPLEX_MEMBERS,
  DELIVERY_ERROR_CODES,
  EVENT_CLAIMS,
  SET_FORBIDDEN_CLAIMS,
  SET_REQUIRED_CLAIMS,
  SSF_VERIFICATION_EVENT,
  SUBJECT_FORMATS,
  SUBJECT_FORMAT_NAMES,
  eventNameOf,
  eventProblems,
  eventUri,
  ssfConfigurationUrl,
  subjectProblems,
  type CaepEventName,
} from "../../src/protocols/caep.js";

// The expectations below are written from the texts (specs/002 area B, public-spec-facts §4,
// CAEP 1.0, SSF 1.0, RFC 9493), not read back from the module, so a drift in its tables shows.

/** A valid subject identifier of each simple format (RFC 9493 §3.2, SSF §3.5). */
const VALID_SUBJECTS: Record<string, Record<string, unknown>> = {
  account: { format: "account", uri: "acct:alice@example.com" },
  email: { format: "email", email: "alice@example.com" },
  iss_sub: { format: "iss_sub", iss: "https://idp.example.com/", sub: "145234573" },
  opaque: { format: "opaque", id: "11112222333344445555" },
  phone_number: { format: "phone_number", phone_number: "+12065550100" },
  did: { format: "did", url: "did:example:123456" },
  uri: { format: "uri", uri: "https://user.example.com/" },
  aliases: {
    format: "aliases",
    identifiers: [
      { format: "email", email: "alice@example.com" },
      { format: "opaque", id: "abc" },
    ],
  },
  jwt_id: { format: "jwt_id", iss: "https://idp.example.com/123456789/", jti: "B70BA622" },
  saml_assertion_id: {
    format: "saml_assertion_id",
    issuer: "https://idp.example.com/123456789/",
    assertion_id: "_8e8dc5f69a98cc4c1ff3427e5ce34606fd672f91e6",
  },
  "ip-addresses": { format: "ip-addresses", "ip-addresses": ["10.29.37.75", "2001:db8::8a2e:370:7334"] },
};

/** The members each format requires (RFC 9493 §3.2, SSF §3.5; public-spec-facts §4). */
const REQUIRED_MEMBERS: Record<string, readonly string[]> = {
  account: ["uri"],
  email: ["email"],
  iss_sub: ["iss", "sub"],
  opaque: ["id"],
  phone_number: ["phone_number"],
  did: ["url"],
  uri: ["uri"],
  aliases: ["identifiers"],
  jwt_id: ["iss", "jti"],
  saml_assertion_id: ["issuer", "assertion_id"],
  "ip-addresses": ["ip-addresses"],
};

const without = (o: Record<string, unknown>, key: string): Record<string, unknown> => {
  const copy = { ...o };
  delete copy[key];
  return copy;
};

describe("ssfConfigurationUrl (SSF §7.2: the well-known segment between host and path)", () => {
  it("an issuer without a path gets the segment after the host", () => {
    expect(ssfConfigurationUrl("https://tr.example.com")).toBe(
      "https://tr.example.com/.well-known/ssf-configuration",
    );
    expect(ssfConfigurationUrl("https://tr.example.com/")).toBe(
      "https://tr.example.com/.well-known/ssf-configuration",
    );
  });

  it("an issuer with a path keeps it after the segment, its terminating / removed", () => {
    expect(ssfConfigurationUrl("https://tr.example.com/issuer1")).toBe(
      "https://tr.example.com/.well-known/ssf-configuration/issuer1",
    );
    expect(ssfConfigurationUrl("https://tr.example.com/issuer1/")).toBe(
      "https://tr.example.com/.well-known/ssf-configuration/issuer1",
    );
    expect(ssfConfigurationUrl("http://127.0.0.1:8443/t/a")).toBe(
      "http://127.0.0.1:8443/.well-known/ssf-configuration/t/a",
    );
  });
});

describe("event type URIs (specs/002 area B Versioning 2; public-spec-facts §4: the event type base)", () => {
  it("the eight event types of the document share the CAEP base", () => {
    expect([...CAEP_EVENT_NAMES].sort()).toEqual(
      [
        "assurance-level-change",
        "credential-change",
        "device-compliance-change",
        "risk-level-change",
        "session-established",
        "session-presented",
        "session-revoked",
        "token-claims-change",
      ].sort(),
    );
    expect(CAEP_EVENT_BASE).toBe("https://schemas.openid.net/secevent/caep/event-type/");
  });

  it("eventNameOf reads back every name eventUri writes", () => {
    for (const name of CAEP_EVENT_NAMES) expect(eventNameOf(eventUri(name))).toBe(name);
    expect(eventNameOf("https://schemas.openid.net/secevent/caep/event-type/session-revoked")).toBe(
      "session-revoked",
    );
  });

  it("eventNameOf gives undefined for any other URI", () => {
    for (const uri of [
      `${CAEP_EVENT_BASE}session-killed`,
      `${CAEP_EVENT_BASE}session-revoked/extra`,
      `${CAEP_EVENT_BASE}`,
      `${CAEP_EVENT_BASE}Session-Revoked`,
      "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
      "http://schemas.openid.net/secevent/caep/event-type/session-revoked",
      SSF_VERIFICATION_EVENT,
      "session-revoked",
      "",
    ])
      expect(eventNameOf(uri), uri).toBeUndefined();
  });
});

describe("subjectProblems (RFC 9493 §3, SSF §3.3-3.5)", () => {
  it("the module knows exactly the formats of the facts, with their members", () => {
    expect({ ...SUBJECT_FORMATS }).toEqual(REQUIRED_MEMBERS);
    expect([...COMPLEX_MEMBERS].sort()).toEqual(
      ["application", "device", "group", "org_unit", "session", "tenant", "user"].sort(),
    );
    expect([...SUBJECT_FORMAT_NAMES].sort()).toEqual([...Object.keys(REQUIRED_MEMBERS), "complex"].sort());
  });

  for (const [format, subject] of Object.entries(VALID_SUBJECTS)) {
    it(`a valid ${format} subject has no problem`, () => {
      expect(subjectProblems(subject)).toEqual([]);
    });
  }

  it("a valid complex subject has no problem, whichever members it names", () => {
    expect(
      subjectProblems({
        format: "complex",
        user: VALID_SUBJECTS.email,
        session: VALID_SUBJECTS.opaque,
      }),
    ).toEqual([]);
    for (const member of COMPLEX_MEMBERS)
      expect(subjectProblems({ format: "complex", [member]: VALID_SUBJECTS.iss_sub }), member).toEqual([]);
    // SSF §3.3: additional member names may appear next to the listed ones.
    expect(
      subjectProblems({ format: "complex", user: VALID_SUBJECTS.email, transferee: VALID_SUBJECTS.opaque }),
    ).toEqual([]);
  });

  for (const [format, members] of Object.entries(REQUIRED_MEMBERS)) {
    for (const member of members) {
      it(`a ${format} subject without ${member} has a problem naming it`, () => {
        const problems = subjectProblems(without(VALID_SUBJECTS[format]!, member));
        expect(problems.length).toBeGreaterThan(0);
        expect(problems.join("\n")).toContain(member);
      });
    }
  }

  it("a member that is empty or not a string is a problem", () => {
    expect(subjectProblems({ format: "email", email: "" })).toEqual([
      "sub_id.email is missing or not a non-empty string",
    ]);
    expect(subjectProblems({ format: "opaque", id: 42 }).length).toBe(1);
    expect(subjectProblems({ format: "iss_sub", iss: "https://idp.example.com/", sub: null }).length).toBe(1);
    expect(subjectProblems({ format: "iss_sub" }).length).toBe(2);
  });

  it("a value that is not an object, or has no string format, is a problem", () => {
    for (const bad of [null, undefined, "alice@example.com", 42, [VALID_SUBJECTS.email]])
      expect(subjectProblems(bad), JSON.stringify(bad)).toEqual(["sub_id is not a JSON object"]);
    expect(subjectProblems({ email: "alice@example.com" })).toEqual([
      "sub_id.format is missing or not a string",
    ]);
    expect(subjectProblems({ format: 7, email: "alice@example.com" })).toEqual([
      "sub_id.format is missing or not a string",
    ]);
  });

  it("an unknown format is a problem", () => {
    const problems = subjectProblems({ format: "passport", number: "X123" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("not a known subject format");
    expect(subjectProblems({ format: "EMAIL", email: "alice@example.com" })).toHaveLength(1);
  });

  it("a format named like an Object.prototype member is an unknown format, never a crash", () => {
    // Hostile input: sub_id.format comes from the token. A lookup that reaches the prototype
    // (SUBJECT_FORMATS["constructor"] is a function) must not throw.
    for (const format of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      let problems: string[] = [];
      expect(() => (problems = subjectProblems({ format }, "sub_id")), format).not.toThrow();
      expect(problems, format).toHaveLength(1);
      expect(problems[0], format).toContain("not a known subject format");
    }
  });

  it("a complex subject naming none of its members is a problem", () => {
    expect(subjectProblems({ format: "complex" })).toHaveLength(1);
  });

  it("a complex subject may name members beyond the known ones (SSF §3.3), and aliases as a member", () => {
    expect(subjectProblems({ format: "complex", workload: VALID_SUBJECTS.opaque })).toEqual([]);
    const aliases = { format: "aliases", identifiers: [VALID_SUBJECTS.email, VALID_SUBJECTS.opaque] };
    expect(subjectProblems({ format: "complex", user: aliases })).toEqual([]);
  });

  it("a complex member that is not a valid subject is a problem at its path", () => {
    expect(subjectProblems({ format: "complex", user: null })).toEqual(["sub_id.user is not a JSON object"]);
    expect(
      subjectProblems({ format: "complex", user: { format: "email" }, session: VALID_SUBJECTS.opaque }),
    ).toEqual(["sub_id.user.email is missing or not a non-empty string"]);
    expect(subjectProblems({ format: "complex", device: { format: "serial", id: "1" } })[0]).toContain(
      "sub_id.device.format",
    );
  });

  it("a complex subject nested in another subject is a problem", () => {
    const inner = { format: "complex", user: VALID_SUBJECTS.email };
    expect(subjectProblems({ format: "complex", user: inner })).toEqual([
      "sub_id.user is a complex subject inside another subject",
    ]);
    expect(subjectProblems({ format: "aliases", identifiers: [inner] })).toHaveLength(1);
  });

  it("aliases with no identifiers is a problem", () => {
    for (const identifiers of [[], undefined, null, {}, "alice@example.com"])
      expect(subjectProblems({ format: "aliases", identifiers }), JSON.stringify(identifiers)).toEqual([
        "sub_id.identifiers is not a non-empty array",
      ]);
  });

  it("aliases nested in aliases is a problem (RFC 9493: aliases MUST NOT be nested)", () => {
    expect(
      subjectProblems({
        format: "aliases",
        identifiers: [VALID_SUBJECTS.email, { format: "aliases", identifiers: [VALID_SUBJECTS.opaque] }],
      }),
    ).toEqual(["sub_id.identifiers[1] is an aliases subject inside aliases"]);
  });

  it("an invalid identifier inside aliases is a problem at its index", () => {
    expect(
      subjectProblems({ format: "aliases", identifiers: [VALID_SUBJECTS.email, { format: "opaque" }] }),
    ).toEqual(["sub_id.identifiers[1].id is missing or not a non-empty string"]);
  });

  it("ip-addresses must be a non-empty array of strings", () => {
    for (const ips of [[], "10.0.0.1", [""], ["10.0.0.1", 7], null])
      expect(
        subjectProblems({ format: "ip-addresses", "ip-addresses": ips }),
        JSON.stringify(ips),
      ).toHaveLength(1);
  });

  it("the path given is used in every problem", () => {
    expect(subjectProblems({ format: "email" }, "events[x].subject")).toEqual([
      "events[x].subject.email is missing or not a non-empty string",
    ]);
  });

  it("a large aliases list is judged whole and quickly", () => {
    const identifiers = Array.from({ length: 5000 }, (_, i) =>
      i === 4321 ? { format: "email" } : { format: "opaque", id: `id-${i}` },
    );
    const started = Date.now();
    expect(subjectProblems({ format: "aliases", identifiers })).toEqual([
      "sub_id.identifiers[4321].email is missing or not a non-empty string",
    ]);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

/** Each type with only its REQUIRED claims (specs/002 area B event table; CAEP 1.0 §3). */
const REQUIRED_ONLY: Record<CaepEventName, Record<string, unknown>> = {
  "session-revoked": {},
  "token-claims-change": { claims: { role: "ro-admin" } },
  "credential-change": { credential_type: "fido2-roaming", change_type: "create" },
  "assurance-level-change": { namespace: "NIST-AAL", current_level: "nist-aal2" },
  "device-compliance-change": { previous_status: "compliant", current_status: "not-compliant" },
  "session-established": {},
  "session-presented": {},
  "risk-level-change": { principal: "USER", current_level: "HIGH" },
};

/** Each type with every optional claim as well (area B "Claims available in every event"; CAEP 1.0 §2, §3). */
const COMMON_FULL = {
  event_timestamp: 1_700_000_000,
  initiating_entity: "policy",
  reason_admin: {
    en: "Landspeed Policy Violation: C076E82F",
    de: "Landspeed-Richtlinienverstoß",
    "es-410": "x",
  },
  reason_user: { en: "Access attempt from multiple regions." },
};
const FULL: Record<CaepEventName, Record<string, unknown>> = {
  "session-revoked": { ...COMMON_FULL },
  "token-claims-change": { ...COMMON_FULL, claims: { role: "ro-admin", groups: ["a"] } },
  "credential-change": {
    ...COMMON_FULL,
    credential_type: "x509",
    change_type: "revoke",
    friendly_name: "Jane's USB authenticator",
    x509_issuer: "CN=Example CA",
    x509_serial: "0123456789",
    fido2_aaguid: "accced6a-63f5-490a-9eea-e59bc1896cfc",
  },
  "assurance-level-change": {
    ...COMMON_FULL,
    namespace: "RFC8176",
    current_level: "mfa",
    previous_level: "pwd",
    change_direction: "increase",
  },
  "device-compliance-change": {
    ...COMMON_FULL,
    previous_status: "not-compliant",
    current_status: "compliant",
  },
  "session-established": {
    ...COMMON_FULL,
    fp_ua: "abb0b6e7da81a42233f8f2b1a8ddb1b9a4c81611",
    acr: "AAL2",
    amr: ["otp"],
    ext_id: "12345",
  },
  "session-presented": { ...COMMON_FULL, fp_ua: "abb0b6e7da81a42233f8f2b1a8ddb1b9", ext_id: "12345" },
  "risk-level-change": {
    ...COMMON_FULL,
    risk_reason: "PASSWORD_FOUND_IN_DATA_BREACH",
    principal: "USER",
    current_level: "LOW",
    previous_level: "HIGH",
  },
};

/** The REQUIRED claims of each type, from the texts. */
const REQUIRED: Record<CaepEventName, readonly string[]> = {
  "session-revoked": [],
  "token-claims-change": ["claims"],
  "credential-change": ["credential_type", "change_type"],
  "assurance-level-change": ["namespace", "current_level"],
  "device-compliance-change": ["previous_status", "current_status"],
  "session-established": [],
  "session-presented": [],
  "risk-level-change": ["principal", "current_level"],
};

describe("eventProblems (specs/002 area B event types; CAEP 1.0 §2, §3)", () => {
  it("the module marks exactly the REQUIRED claims of the texts", () => {
    for (const name of CAEP_EVENT_NAMES) {
      const required = Object.entries(EVENT_CLAIMS[name])
        .filter(([, rule]) => rule.required)
        .map(([claim]) => claim);
      expect(required.sort(), name).toEqual([...REQUIRED[name]].sort());
    }
  });

  for (const name of CAEP_EVENT_NAMES) {
    describe(name, () => {
      const uri = eventUri(name);

      it("with only its REQUIRED claims has no problem", () => {
        expect(eventProblems(uri, REQUIRED_ONLY[name])).toEqual([]);
      });

      it("with every optional claim too has no problem", () => {
        expect(eventProblems(uri, FULL[name])).toEqual([]);
      });

      it("with unknown claims next to its own has no problem (SSF §4.2.3)", () => {
        expect(
          eventProblems(uri, { ...REQUIRED_ONLY[name], vendor_hint: { x: 1 }, subject: "legacy" }),
        ).toEqual([]);
      });

      for (const claim of REQUIRED[name]) {
        it(`without ${claim} has exactly one problem naming it`, () => {
          expect(eventProblems(uri, without(REQUIRED_ONLY[name], claim))).toEqual([
            `events[${uri}].${claim} is missing (REQUIRED)`,
          ]);
        });
        it(`with ${claim} empty ("" or {}) has exactly one problem naming it`, () => {
          const empty = typeof REQUIRED_ONLY[name][claim] === "string" ? "" : {};
          expect(eventProblems(uri, { ...REQUIRED_ONLY[name], [claim]: empty })).toEqual([
            `events[${uri}].${claim} is an empty ${empty === "" ? "string" : "object"} (REQUIRED)`,
          ]);
        });
      }

      it("with a claim object that is not a JSON object has a problem", () => {
        for (const bad of [null, "x", 5, [REQUIRED_ONLY[name]]])
          expect(eventProblems(uri, bad), JSON.stringify(bad)).toEqual([
            `events[${uri}] is not a JSON object`,
          ]);
      });

      it("with bad common claims has one problem per claim", () => {
        const problems = eventProblems(uri, {
          ...REQUIRED_ONLY[name],
          event_timestamp: "1700000000",
          initiating_entity: "robot",
          reason_admin: {},
          reason_user: { en: 5 },
        });
        expect(problems).toHaveLength(4);
        expect(problems.join("\n")).toMatch(/event_timestamp/);
        expect(problems.join("\n")).toMatch(/initiating_entity/);
        expect(problems.join("\n")).toMatch(/reason_admin/);
        expect(problems.join("\n")).toMatch(/reason_user/);
      });
    });
  }

  it("every initiating_entity value of CAEP 1.0 §2 is accepted, no other", () => {
    const uri = eventUri("session-revoked");
    for (const v of ["admin", "user", "policy", "system"])
      expect(eventProblems(uri, { initiating_entity: v }), v).toEqual([]);
    for (const v of ["Admin", "transmitter", ""])
      expect(eventProblems(uri, { initiating_entity: v }), v).toHaveLength(1);
  });

  it("event_timestamp must be a finite number", () => {
    const uri = eventUri("session-revoked");
    for (const v of ["1700000000", Infinity, NaN, null, true])
      expect(eventProblems(uri, { event_timestamp: v }), String(v)).toHaveLength(1);
    expect(eventProblems(uri, { event_timestamp: 1_700_000_000.5 })).toEqual([]);
  });

  describe('closed value sets (CAEP 1.0: "MUST be one of")', () => {
    const cases: [CaepEventName, string, unknown][] = [
      ["credential-change", "change_type", "rotate"],
      ["credential-change", "change_type", "CREATE"],
      ["device-compliance-change", "previous_status", "unknown"],
      ["device-compliance-change", "current_status", "noncompliant"],
      ["risk-level-change", "current_level", "CRITICAL"],
      ["risk-level-change", "current_level", "high"],
      ["risk-level-change", "previous_level", "NONE"],
      ["assurance-level-change", "change_direction", "sideways"],
    ];
    for (const [name, claim, value] of cases) {
      it(`${name} ${claim} ${JSON.stringify(value)} is a problem`, () => {
        const problems = eventProblems(eventUri(name), { ...REQUIRED_ONLY[name], [claim]: value });
        expect(problems).toHaveLength(1);
        expect(problems[0]).toContain(`.${claim} "${String(value)}" is not one of`);
      });
    }

    it("every value the texts list is accepted", () => {
      for (const v of ["create", "revoke", "update", "delete"])
        expect(
          eventProblems(eventUri("credential-change"), {
            ...REQUIRED_ONLY["credential-change"],
            change_type: v,
          }),
        ).toEqual([]);
      for (const v of ["LOW", "MEDIUM", "HIGH"])
        expect(
          eventProblems(eventUri("risk-level-change"), {
            principal: "DEVICE",
            current_level: v,
            previous_level: v,
          }),
        ).toEqual([]);
      for (const v of ["increase", "decrease"])
        expect(
          eventProblems(eventUri("assurance-level-change"), {
            ...REQUIRED_ONLY["assurance-level-change"],
            previous_level: "nist-aal1",
            change_direction: v,
          }),
        ).toEqual([]);
    });
  });

  describe('open value sets ("or any other value agreed")', () => {
    it("credential_type allows other mutually agreed types", () => {
      for (const v of ["password", "pin", "phone-sms", "app", "acme-hardware-token"])
        expect(
          eventProblems(eventUri("credential-change"), { credential_type: v, change_type: "update" }),
          v,
        ).toEqual([]);
    });

    it("namespace allows a custom agreed alias", () => {
      for (const v of ["RFC6711", "ISO-IEC-29115", "NIST-IAL", "NIST-FAL", "ACME-LOA"])
        expect(
          eventProblems(eventUri("assurance-level-change"), { namespace: v, current_level: "2" }),
          v,
        ).toEqual([]);
    });

    it("principal allows another entity of the framework", () => {
      for (const v of ["SESSION", "TENANT", "ORG_UNIT", "GROUP", "WORKLOAD"])
        expect(
          eventProblems(eventUri("risk-level-change"), { principal: v, current_level: "MEDIUM" }),
          v,
        ).toEqual([]);
    });

    it("an open claim must still be a string", () => {
      expect(
        eventProblems(eventUri("credential-change"), { credential_type: 5, change_type: "update" }),
      ).toEqual([`events[${eventUri("credential-change")}].credential_type is not a string`]);
    });
  });

  describe("claim types", () => {
    it("token-claims-change claims must be a JSON object", () => {
      for (const v of ["role=admin", ["role"], null])
        expect(eventProblems(eventUri("token-claims-change"), { claims: v }), JSON.stringify(v)).toHaveLength(
          1,
        );
    });

    it("session-established amr must be an array of strings", () => {
      for (const v of ["pwd", ["pwd", 1], { 0: "pwd" }])
        expect(eventProblems(eventUri("session-established"), { amr: v }), JSON.stringify(v)).toHaveLength(1);
      expect(eventProblems(eventUri("session-established"), { amr: [] })).toEqual([]);
    });

    it("string claims must be strings", () => {
      expect(eventProblems(eventUri("session-presented"), { fp_ua: 1, ext_id: false })).toHaveLength(2);
      expect(
        eventProblems(eventUri("assurance-level-change"), { namespace: "RFC8176", current_level: 2 }),
      ).toHaveLength(1);
    });
  });

  describe("reason_admin and reason_user (CAEP 1.0 §2: BCP47 tag to message, one pair or more)", () => {
    const uri = eventUri("session-revoked");

    it("maps from language tags to strings are accepted", () => {
      for (const map of [{ en: "x" }, { "en-US": "x", de: "y" }, { "es-410": "x" }, { "zh-Hant-TW": "x" }]) {
        expect(eventProblems(uri, { reason_admin: map }), JSON.stringify(map)).toEqual([]);
        expect(eventProblems(uri, { reason_user: map }), JSON.stringify(map)).toEqual([]);
      }
    });

    it("an empty map, a non-map, a non-tag key or a non-string message is a problem", () => {
      for (const map of [
        {},
        [],
        "en: x",
        null,
        { en: 5 },
        { en_US: "x" },
        { "not a tag": "x" },
        { "": "x" },
      ]) {
        expect(eventProblems(uri, { reason_admin: map }), JSON.stringify(map)).toHaveLength(1);
        expect(eventProblems(uri, { reason_user: map }), JSON.stringify(map)).toHaveLength(1);
      }
    });
  });

  describe("the verification event (SSF §8.1.4.1: state OPTIONAL)", () => {
    it("with or without a string state has no problem", () => {
      expect(eventProblems(SSF_VERIFICATION_EVENT, {})).toEqual([]);
      expect(
        eventProblems(SSF_VERIFICATION_EVENT, { state: "VGhpcyBpcyBhbiBleGFtcGxlIHN0YXRlIHZhbHVlLgo=" }),
      ).toEqual([]);
      expect(eventProblems(SSF_VERIFICATION_EVENT, { state: "s", extra: 1 })).toEqual([]);
    });

    it("a state that is not a string, or claims that are not an object, is a problem", () => {
      expect(eventProblems(SSF_VERIFICATION_EVENT, { state: 5 })).toEqual([
        `events[${SSF_VERIFICATION_EVENT}].state is not a string`,
      ]);
      expect(eventProblems(SSF_VERIFICATION_EVENT, null)).toHaveLength(1);
    });
  });

  it("an unknown event type URI gives no problem, whatever its claims", () => {
    for (const uri of [
      `${CAEP_EVENT_BASE}session-killed`,
      "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
      "https://schemas.openid.net/secevent/ssf/event-type/stream-updated",
      "urn:example:secevent:events:type_2",
    ])
      for (const claims of [{}, null, 5, { claims: "x" }])
        expect(eventProblems(uri, claims), `${uri} ${JSON.stringify(claims)}`).toEqual([]);
  });

  it("the path given is used in every problem", () => {
    expect(eventProblems(eventUri("token-claims-change"), {}, "ev")).toEqual([
      "ev.claims is missing (REQUIRED)",
    ]);
  });
});

describe("SET envelope and delivery constants (public-spec-facts §4; RFC 8935 §2.4)", () => {
  it("the SET claims a CAEP SET must carry, and those it must not", () => {
    expect([...SET_REQUIRED_CLAIMS].sort()).toEqual(["events", "iat", "iss", "jti", "sub_id"]);
    expect([...SET_FORBIDDEN_CLAIMS].sort()).toEqual(["exp", "sub"]);
  });

  it("the push and poll error codes include the six of RFC 8935 §2.4", () => {
    expect(DELIVERY_ERROR_CODES).toEqual(
      expect.arrayContaining([
        "invalid_request",
        "invalid_key",
        "invalid_issuer",
        "invalid_audience",
        "authentication_failed",
        "access_denied",
      ]),
    );
  });

  it("the error codes include SSF's invalid_state (a verification event with a state not asked for)", () => {
    expect(DELIVERY_ERROR_CODES).toContain("invalid_state");
  });
});
