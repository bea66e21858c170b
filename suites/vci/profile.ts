import { z } from "zod";
import { publicJwkSetText } from "../../src/engine/profile-keys.js";
import { suiteSection } from "../../src/engine/suite.js";

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
const isJsonObject = (t: string): boolean => {
  const v = parsed(t);
  return v !== null && typeof v === "object" && !Array.isArray(v);
};

/** A JSON body for the vendor's offer hook; `{walletOfferEndpoint}` in any string is replaced. */
const hookBody = z.record(z.string(), z.unknown());

const browserStep = z.union([
  z.strictObject({ fill: z.strictObject({ selector: z.string().min(1), value: z.string() }) }),
  z.strictObject({ click: z.string().min(1) }),
  z.strictObject({ waitFor: z.string().min(1) }),
  z.strictObject({ goto: z.url() }),
]);

/**
 * The `suites.vci` section. `baseUrl` is the Credential Issuer identifier (its metadata is
 * found from it). Offers come from the vendor's test hook (`offers.trigger`), delivered to
 * the mock wallet's Credential Offer Endpoint (`offers.delivery: wallet`), or are one fixed
 * offer (checks that need more offers are then skipped).
 */
export const vciProfile = suiteSection({
  /** Identifier set: the document's `std` names (default) or the published `openid` ones. */
  identifiers: z.enum(["std", "openid"]).default("std"),
  /** client_id the Wallet uses at the Authorization Server. */
  clientId: z.string().min(1).max(200).default("idconform-wallet"),
  offers: z
    .strictObject({
      /** The vendor's test hook returning a fresh offer: POST with a JSON body per kind of offer. */
      trigger: z
        .strictObject({
          url: z.url(),
          headers: z.record(z.string(), z.string()).default({}),
          /**
           * How the offer reaches the Wallet: in the hook's response (`response`), or sent by
           * the vendor's system to the mock wallet's Credential Offer Endpoint (`wallet`).
           */
          delivery: z.enum(["response", "wallet"]).default("response"),
          /**
           * Where the hook's JSON response holds the offer invocation (URL or offer object) and
           * the tx_code: a member name, or a dotted path through nested objects (`data.offer.uri`).
           */
          offerMember: z.string().min(1).default("offer"),
          txCodeMember: z.string().min(1).default("tx_code"),
          /** Hook bodies by kind of offer; a kind left out skips the checks that need it. */
          kinds: z.strictObject({
            /** A pre-authorized offer without tx_code, by reference (most checks use it). */
            preAuthorized: hookBody,
            /** A pre-authorized offer with a tx_code. */
            txCode: hookBody.optional(),
            /** An offer by value. */
            byValue: hookBody.optional(),
            /** An offer whose credential is issued deferred. */
            deferred: hookBody.optional(),
            /** An offer with an authorization_code grant: its issuer_state goes into the browser flow. */
            authorizationCode: hookBody.optional(),
          }),
        })
        .optional(),
      /** One fixed offer (invocation URL or offer JSON text), and its tx_code if any. */
      fixed: z
        .strictObject({
          offer: z
            .string()
            .min(1)
            .refine((t) => !t.trim().startsWith("{") || isJsonObject(t), {
              message: "expected an invocation URL or the offer as a JSON object",
            }),
          txCode: z.string().optional(),
        })
        .optional(),
      /** Longest wait for an offer at the wallet's endpoint, in ms. */
      deliveryTimeoutMs: z.int().min(100).max(30_000).default(5000),
    })
    .refine((o) => (o.trigger === undefined) !== (o.fixed === undefined), {
      message: "give exactly one of offers.trigger and offers.fixed",
    }),
  /** Keys trusted for signed metadata (a JWK Set as JSON text); without it, the signature is not judged. */
  metadataKeys: publicJwkSetText().optional(),
  /** The authorization code flow, driven in a browser; left out, its check is skipped. */
  authorization: z
    .strictObject({
      /** The configuration asked for with authorization_details. */
      configuration: z.string().min(1),
      /** Steps on the login and consent pages, in order (selectors and values; secrets from ${ENV}). */
      steps: z.array(browserStep).min(1).max(50),
      timeoutMs: z.int().min(1000).max(120_000).default(20_000),
    })
    .optional(),
  /** The mock wallet (Credential Offer Endpoint, redirect_uri). */
  wallet: z
    .strictObject({
      port: z.int().min(0).max(65535).optional(),
      host: z.string().min(1).optional(),
      /** Where the vendor's system reaches the mock wallet, when not where it listens. */
      publicUrl: z.url().optional(),
    })
    .default({}),
  /** Longest the Wallet polls a deferred credential (waiting each interval the issuer asks), in ms. */
  deferredTimeoutMs: z.int().min(1000).max(60_000).default(20_000),
  /** Fresh nonces sampled by the unpredictability property. */
  nonceSamples: z.int().min(8).max(1000).default(64),
});
export type VciProfile = z.output<typeof vciProfile>;
