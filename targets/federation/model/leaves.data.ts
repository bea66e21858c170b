import type { EventType, Metadata } from "./entity.js";
import type { MarkName } from "./trust-marks.js";

/** How a fixture mark is made: valid now, expired a month ago, or forged by a stranger. */
export type MarkState = "valid" | "expired" | "forged";

/** One leaf of the fixed federation (its path is under the target's origin). */
export interface LeafSpec {
  readonly path: string;
  /** Days ago, event, description: the first is the registration. */
  readonly history: readonly (readonly [number, EventType, string?])[];
  readonly marks?: readonly (readonly [MarkName, MarkState])[];
  readonly suspended?: boolean;
  readonly metadata: Metadata;
}

const rp = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  redirect_uris: [`https://${name}.example/callback`],
  response_types: ["code"],
  grant_types: ["authorization_code"],
  token_endpoint_auth_method: "private_key_jwt",
  client_registration_types: ["automatic"],
  ...extra,
});
const client = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  grant_types: ["client_credentials"],
  token_endpoint_auth_method: "private_key_jwt",
  ...extra,
});
const links = (host: string): Record<string, string> => ({
  logo_uri: `https://${host}/logo.png`,
  policy_uri: `https://${host}/privacy`,
  information_uri: `https://${host}/about`,
});

/**
 * The leaves of the fixed federation. Between them they hold every case the collection's
 * display rules have (specs/001 Language variants and Mapping): language variants with subtags
 * (de, de-CH, de-AT, en-GB, sr-Latn), look-alike tags (fi and fil), display_name missing so that
 * client_name or resource_name stands in, an entity type without informational claims, and
 * Trust Marks valid, expired and forged. Histories span registration, updates and a suspension.
 * Below the Intermediates they hold what their metadata_policy acts on (Metadata Policy,
 * Operators): grant types subset_of removes, parameters left absent, contacts add starts or
 * extends, a value default must not override, and one value null removes.
 */
export const LEAVES: readonly LeafSpec[] = [
  {
    path: "/ta/rp-alpha",
    history: [
      [400, "registration"],
      [200, "metadata_update", "redirect URIs changed"],
      [90, "jwks_update", "scheduled key rotation"],
    ],
    marks: [
      ["certified", "valid"],
      ["sirtfi", "valid"],
    ],
    metadata: {
      openid_relying_party: rp("alpha", {
        client_name: "alpha-portal",
        display_name: "Alpha Portal",
        "display_name#de": "Alpha-Portal",
        "display_name#de-CH": "Alpha-Portal (Schweiz)",
        "display_name#fr": "Portail Alpha",
        description: "Citizen portal of Alpha",
        "description#de": "Bürgerportal von Alpha",
        "description#fr": "Portail citoyen d'Alpha",
        keywords: ["portal", "citizens"],
        ...links("alpha.example"),
      }),
      federation_entity: {
        organization_name: "Alpha GmbH",
        display_name: "Alpha GmbH",
        "display_name#de-CH": "Alpha GmbH Schweiz",
        contacts: ["ops@alpha.example"],
      },
    },
  },
  {
    path: "/ta/rp-beta",
    history: [
      [380, "registration"],
      [30, "metadata_update", "contacts changed"],
    ],
    marks: [
      ["certified", "expired"],
      ["sirtfi", "valid"],
    ],
    metadata: {
      openid_relying_party: rp("beta", {
        client_name: "Beta Services",
        "client_name#de": "Beta-Dienste",
        "client_name#fi": "Beta-palvelut",
        "client_name#fil": "Mga Serbisyo ng Beta",
        description: "Services of Beta",
        "description#fi": "Betan palvelut",
      }),
    },
  },
  {
    path: "/ta/client-gamma",
    history: [[350, "registration"]],
    marks: [["certified", "valid"]],
    metadata: {
      oauth_client: client({ client_name: "Gamma Sync", "client_name#de-AT": "Gamma-Abgleich" }),
    },
  },
  {
    path: "/ta/api-delta",
    history: [
      [300, "registration"],
      [100, "jwks_update"],
      [20, "metadata_update", "resource name changed"],
    ],
    metadata: {
      oauth_resource: {
        resource: "https://delta.example/records",
        resource_name: "Delta Records API",
        "resource_name#de": "Delta-Aktenschnittstelle",
        description: "Records of Delta",
        "description#en-GB": "Delta's records, catalogued",
        keywords: ["records", "archive"],
        ...links("delta.example"),
      },
    },
  },
  {
    path: "/ta/rp-epsilon",
    history: [
      [250, "registration"],
      [60, "metadata_update"],
    ],
    marks: [
      ["certified", "valid"],
      ["gold", "valid"],
    ],
    metadata: {
      openid_relying_party: rp("epsilon", {
        client_name: "eps-web",
        display_name: "Epsilon",
        "display_name#en": "Epsilon",
        "display_name#en-GB": "Epsilon (UK)",
        policy_uri: "https://epsilon.example/privacy",
      }),
      oauth_client: client({ client_name: "Epsilon Backend", "client_name#en-GB": "Epsilon Backend (UK)" }),
    },
  },
  {
    path: "/ta/rp-zeta",
    history: [[200, "registration"]],
    marks: [["gold", "expired"]],
    metadata: {
      openid_relying_party: rp("zeta", {
        display_name: "Zeta",
        "display_name#de-CH": "Zeta Schweiz",
        "display_name#sr-Latn": "Zeta Srbija",
        description: "Zeta's service",
      }),
    },
  },
  {
    path: "/ta/op-eta",
    history: [
      [150, "registration"],
      [10, "jwks_update", "emergency key rotation"],
    ],
    marks: [["sirtfi", "valid"]],
    metadata: {
      openid_provider: {
        issuer: "https://eta.example",
        authorization_endpoint: "https://eta.example/authorize",
        token_endpoint: "https://eta.example/token",
        jwks_uri: "https://eta.example/jwks",
        response_types_supported: ["code"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["ES256"],
        client_registration_types_supported: ["automatic", "explicit"],
      },
      federation_entity: {
        organization_name: "Eta Identity AS",
        display_name: "Eta Identity",
        "display_name#nb": "Eta Identitet",
        ...links("eta.example"),
      },
    },
  },
  {
    path: "/ta/wallet-theta",
    history: [
      [120, "registration"],
      [50, "metadata_update"],
      [5, "suspension", "suspended pending a security review"],
    ],
    suspended: true,
    metadata: {
      oauth_client: client({ client_name: "Theta Wallet", "client_name#de": "Theta-Brieftasche" }),
      federation_entity: { organization_name: "Theta Ltd", display_name: "Theta Ltd" },
    },
  },
  {
    path: "/ta/rp-iota",
    history: [[2, "registration"]],
    metadata: {
      openid_relying_party: rp("iota", { display_name: "Iota", logo_uri: "https://iota.example/logo.png" }),
    },
  },
  {
    // The client the demo profile authenticates as (its private key is handed over in env).
    path: "/ta/harness-client",
    history: [[400, "registration"]],
    metadata: {
      oauth_client: client({ client_name: "idconform harness client" }),
      federation_entity: { organization_name: "idconform" },
    },
  },
  {
    path: "/ta/int1/uni-a",
    history: [
      [320, "registration"],
      [40, "metadata_update"],
    ],
    marks: [["certified", "valid"]],
    metadata: {
      openid_relying_party: rp("uni-a", {
        grant_types: ["authorization_code", "refresh_token"],
        display_name: "University A",
        "display_name#de": "Universität A",
      }),
    },
  },
  {
    path: "/ta/int1/uni-b",
    history: [[310, "registration"]],
    metadata: {
      oauth_resource: {
        resource: "https://uni-b.example/api",
        resource_name: "Library API",
        "resource_name#fr": "API de la bibliothèque",
      },
    },
  },
  {
    path: "/ta/int1/uni-c",
    history: [
      [300, "registration"],
      [3, "jwks_update"],
    ],
    // Its relying party leaves grant_types and token_endpoint_auth_method to their registration
    // defaults: int1's subset_of, superset_of and one_of on them have nothing to act on.
    metadata: {
      oauth_client: client({ client_name: "Campus Sync" }),
      openid_relying_party: {
        redirect_uris: ["https://uni-c.example/callback"],
        response_types: ["code"],
        client_registration_types: ["automatic"],
      },
    },
  },
  {
    path: "/ta/int1/uni-d",
    history: [[290, "registration"]],
    marks: [["sirtfi", "valid"]],
    // oauth_client first: the registry's contacts go there, so int1's `add` starts the relying
    // party's contacts. More grant types than int1's metadata_policy allows: subset_of removes one.
    metadata: {
      oauth_client: client({ client_name: "Student Portal backend" }),
      openid_relying_party: rp("uni-d", {
        grant_types: [
          "authorization_code",
          "refresh_token",
          "urn:ietf:params:oauth:grant-type:token-exchange",
        ],
        display_name: "Student Portal",
        "display_name#de-DE": "Studierendenportal",
      }),
    },
  },
  {
    path: "/ta/int2/clinic-a",
    history: [
      [280, "registration"],
      [25, "metadata_update"],
    ],
    marks: [["certified", "valid"]],
    metadata: {
      openid_relying_party: rp("clinic-a", { display_name: "Clinic A", "display_name#de": "Klinik A" }),
    },
  },
  {
    path: "/ta/int2/clinic-b",
    history: [[270, "registration"]],
    marks: [["certified", "forged"]],
    // Its own id_token alg, which int2's default must not override, and request_uris, which
    // int2's metadata_policy removes (value null).
    metadata: {
      openid_relying_party: rp("clinic-b", {
        display_name: "Clinic B",
        id_token_signed_response_alg: "PS256",
        request_uris: ["https://clinic-b.example/requests/1"],
      }),
    },
  },
  {
    path: "/ta/int2/lab-c",
    history: [
      [260, "registration"],
      [15, "jwks_update"],
    ],
    metadata: { oauth_resource: { resource: "https://lab-c.example/results", resource_name: "Lab Results" } },
  },
];
