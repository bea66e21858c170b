import { z } from "zod";
import { privateJwkText } from "../../src/engine/profile-keys.js";
import { suiteSection } from "../../src/engine/suite.js";

/** A vendor test hook: a POST with a JSON body to `url`, with these headers. */
const hook = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
  headers: z.record(z.string(), z.string()).default({}),
});

/**
 * `suites.federation` of a profile (specs/001 with the base federation facts of
 * public-spec-facts §2). `baseUrl` is the target's Entity Identifier: its Entity Configuration
 * is read at `<baseUrl without a trailing />/.well-known/openid-federation`, and every endpoint
 * is taken from its `federation_entity` metadata, never from the profile.
 */
export const federationProfile = suiteSection({
  /**
   * What the target is in the federation. Left out, it is read from its Entity Configuration
   * (no `authority_hints`: a Trust Anchor). Only an anchor or an intermediate lists subordinates.
   */
  role: z.enum(["anchor", "intermediate"]).optional(),
  /** How the extended list takes `claims`: comma-separated (the document's examples), repeated, or both. */
  claimsForm: z.enum(["comma", "repeated", "both"]).default("comma"),
  /**
   * Upper limits the target states (entries per page without `limit`, or the most it returns):
   * a page longer than these fails; without them only `limit` bounds a page.
   */
  limits: z
    .strictObject({
      extendedList: z.int().min(1).optional(),
      collection: z.int().min(1).optional(),
    })
    .default({}),
  /** Trust Anchors the collection endpoint is asked to collect under besides the target itself. */
  trustAnchors: z
    .strictObject({
      /** Another anchor the target supports (`trust_anchor`); without it FED-COLL-TA-OTHER is not exercised. */
      other: z.url().optional(),
    })
    .default({}),
  /**
   * Client authentication (`private_key_jwt`, `aud` the responder): which endpoints require it
   * (their requests are then POST), the client's Entity Identifier and private key (a JWK from
   * the environment). Without `clientId` the harness authenticates as its mock leaf (`mocks`),
   * which publishes an Entity Configuration signed with `clientKey`: the target must trust it.
   * Without `clientAuth`, every request is a GET without authentication.
   */
  clientAuth: z
    .strictObject({
      endpoints: z.array(z.enum(["extendedList", "collection", "events"])).min(1),
      clientId: z.url().optional(),
      clientKey: privateJwkText(),
    })
    .optional(),
  /**
   * The change hook: adds, updates or removes an Immediate Subordinate (`{"op": "add" | "update"
   * | "remove", "id"?: …}`), for the consistency-under-change checks. Without it they are skipped
   * ("needs hook").
   */
  hooks: z.strictObject({ change: hook.optional() }).default({}),
  /** Event types the federation operator defines and documents, besides the document's own. */
  eventTypes: z.array(z.string().min(1)).default([]),
  /** Bounds of every walk: a `next` that never ends, or pages that grow, stop here with a finding. */
  walk: z
    .strictObject({
      maxPages: z.int().min(1).max(1_000_000).default(5000),
      maxEntries: z.int().min(1).max(10_000_000).default(500_000),
      /**
       * Subordinate Statements fetched to judge "every statement" rules: past this many, the rules
       * are judged on the first ones and stay "partly observed" (never a pass).
       */
      fetchMax: z.int().min(1).max(1_000_000).default(1000),
      /** Generated `limit` values (and ranges, locales) of each property. */
      runs: z.int().min(1).max(500).default(20),
    })
    .default({ maxPages: 5000, maxEntries: 500_000, fetchMax: 1000, runs: 20 }),
  /**
   * The resolve endpoint check: how many entities it resolves (the Intermediates below the target
   * and two Subordinates of each first, then those with Trust Marks, then the others).
   */
  resolve: z.strictObject({ subjects: z.int().min(1).max(100).default(12) }).default({ subjects: 12 }),
  /** The mock federation entities (a leaf, an intermediate, a second Trust Anchor). */
  mocks: z
    .strictObject({ port: z.int().min(0).max(65535).optional(), publicUrl: z.url().optional() })
    .default({}),
});

export type FederationProfile = z.infer<typeof federationProfile>;
