import { readFileSync } from "node:fs";
import { join } from "node:path";
import { walletDelivery } from "../helpers/vci-profiles.js";
import { ROOT } from "../helpers/cli.js";

/**
 * A second profile a suite's mutation test also runs some checks with, so that target code
 * only another setting reaches (an offer sent to the wallet instead of answered) is covered.
 */
export interface MutationVariant {
  readonly name: string;
  /** The profile's text, made from the suite's demo profile. */
  readonly profile: () => string;
  /** The checks run with it (the ones the setting changes), or all of the suite's. */
  readonly checks: readonly string[] | "all";
  /** Requirements each check leaves skipped against the clean target with this profile (see CLEAN_SKIPS). */
  readonly cleanSkips?: Readonly<Record<string, readonly string[]>>;
}

/** The client-authentication checks skip without `clientAuth` in the profile. */
const NO_CLIENT_AUTH = {
  "federation.client-auth": ["FED-AUTH-PRIVATE-KEY-JWT", "FED-AUTH-ASSERTION-CHECKED"],
  "federation.client-auth-post": ["FED-AUTH-XL-POST", "FED-AUTH-COLL-POST", "FED-AUTH-EVT-POST"],
} as const;

const demo = (suite: string): string => readFileSync(join(ROOT, "profiles", "demo", `${suite}.yaml`), "utf8");

/** What a Receiver that polls leaves skipped: the rules about answers to pushed SETs. */
const PUSH_ONLY_ERR_CODE = ["CAEPR-PUSH-ERR-CODE"] as const;

export const VARIANTS: Readonly<Record<string, readonly MutationVariant[]>> = {
  vci: [
    {
      name: "offers delivered to the wallet",
      profile: () => walletDelivery(demo("vci")),
      checks: ["vci.offer.reference", "vci.offer.value", "vci.offer.tx-code"],
    },
  ],
  // The reference target's open Intermediate answers with code the Trust Anchor never reaches
  // (its authority_hints, a collection asked without trust_anchor at a non-anchor).
  federation: [
    {
      name: "the open Intermediate",
      profile: () => demo("federation-intermediate"),
      checks: "all",
      cleanSkips: {
        "federation.entity-configuration": ["FED-EC-ANCHOR-NO-HINTS", "FED-EC-TRUST-MARKS"],
        "federation.xl-change": ["FED-XL-FROM-UNKNOWN"],
        "federation.collection-trust-anchors": ["FED-COLL-TA-OMITTED"],
        ...NO_CLIENT_AUTH,
      },
    },
    {
      // The protected Intermediate's client authentication (its other endpoints' code is the
      // open Intermediate's, already run above).
      name: "the Intermediate requiring client authentication",
      profile: () => demo("federation-protected"),
      checks: ["federation.client-auth", "federation.client-auth-post"],
    },
  ],
  // The reference Receiver's poller (targets/caep-receiver/stream/poller.ts) runs only when the
  // Transmitter offers poll delivery alone.
  "caep-receiver": [
    {
      name: "poll delivery",
      profile: () => demo("caep-receiver-poll"),
      checks: "all",
      cleanSkips: {
        "caep-receiver.refuse-signature": PUSH_ONLY_ERR_CODE,
        "caep-receiver.refuse-envelope": PUSH_ONLY_ERR_CODE,
        "caep-receiver.refuse-event-claims": PUSH_ONLY_ERR_CODE,
        "caep-receiver.refuse-subject": PUSH_ONLY_ERR_CODE,
        "caep-receiver.refuse-malformed": PUSH_ONLY_ERR_CODE,
        "caep-receiver.key-rotation": PUSH_ONLY_ERR_CODE,
        "caep-receiver.refuse-push-transport": [
          "CAEPR-CONTENT-TYPE",
          "CAEPR-BODY-SIZE",
          "CAEPR-PUSH-AUTH",
          "CAEPR-PUSH-ERR-CODE",
        ],
        "caep-receiver.observe-push-202": ["CAEPR-PUSH-SUCCESS-202"],
        "caep-receiver.observe-push-error-format": ["CAEPR-PUSH-ERROR-FORMAT"],
        "caep-receiver.observe-no-5xx": ["CAEPR-NO-5XX"],
        "caep-receiver.observe-no-leak": ["CAEPR-ERROR-NO-LEAK"],
        "caep-receiver.observe-push-refusal-400": ["CAEPR-PUSH-REFUSAL-400"],
        // A SET pushed again is CAEPR-DUPLICATE-JTI's; handed out again by poll, CAEPR-POLL-DUPLICATE-JTI's.
        "caep-receiver.duplicate-jti": ["CAEPR-DUPLICATE-JTI"],
      },
    },
  ],
};

/**
 * Requirements a check leaves skipped against the clean target with the suite's demo profile,
 * because the profile's role or settings make them not applicable there (a Trust Anchor has no
 * authority_hints to judge; the demo names no endpoint requiring client authentication), or
 * because another check decides them (a removed entry's from, met by the change walks only when
 * it goes wrong). A mutant must change something else to be killed; the fault matrix holds these
 * skips to the clean run.
 */
/**
 * Checks that judge what the whole run made the target send (every SET a Transmitter delivered,
 * every push it made), read from the mocks' logs after the others. The mutation test runs them
 * after each check too, counting only their violations, so a mutant that spoils what one check
 * makes the target send is killed by that check's test.
 */
export const RUN_WIDE: Readonly<Record<string, readonly string[]>> = {
  "caep-transmitter": ["caep-transmitter.every-set", "caep-transmitter.every-push"],
};

export const CLEAN_SKIPS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  // The demo Receiver is pushed to: the poll rules are decided by the poll variant.
  "caep-receiver": {
    "caep-receiver.poll-batches": [
      "CAEPR-POLL-ACK",
      "CAEPR-POLL-SETERRS",
      "CAEPR-POLL-NO-LOSS",
      "CAEPR-POLL-ACK-ONLY-DELIVERED",
      "CAEPR-POLL-DUPLICATE-JTI",
    ],
    "caep-receiver.poll-requests": [
      "CAEPR-POLL-REQUEST-FORMAT",
      "CAEPR-POLL-AUTH",
      "CAEPR-POLL-ACK-ONLY-DELIVERED",
      "CAEPR-ERROR-NO-LEAK",
    ],
    "caep-receiver.duplicate-jti": ["CAEPR-POLL-DUPLICATE-JTI"],
  },
  federation: {
    "federation.entity-configuration": ["FED-EC-INTERMEDIATE-HINTS", "FED-EC-TRUST-MARKS"],
    "federation.xl-change": ["FED-XL-FROM-UNKNOWN"],
    "federation.collection-trust-anchors": ["FED-COLL-TA-NOT-ANCHOR"],
    ...NO_CLIENT_AUTH,
  },
};
