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
}

const demo = (suite: string): string => readFileSync(join(ROOT, "profiles", "demo", `${suite}.yaml`), "utf8");

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
    },
  ],
};
