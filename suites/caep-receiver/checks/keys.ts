import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { defineCheck } from "../../../src/engine/check.js";
import { PRIVATE_JWK_MEMBERS } from "../../../src/engine/profile-keys.js";
import { attackerKey } from "../../../src/engine/token-attacks.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient, type BuiltSet } from "../receiver-client.js";
import { accepted, ATTACK, baseline, deliver, refused, type DeliveryOutcome } from "../delivery.js";
import { errNotJudged, ERR_CODE, judgeErr, KEY_ERRS } from "./refuse.js";

/** The public half of a private JWK. */
function publicOf(jwk: JWK): JWK {
  const pub: Record<string, unknown> = { ...jwk };
  for (const m of PRIVATE_JWK_MEMBERS) delete pub[m];
  return pub as JWK;
}

/** A new key pair of the same algorithm (curve, size) as `like`, with a kid of its own. */
async function newKeyLike(like: JWK, kid: string): Promise<JWK> {
  const alg = like.alg ?? "ES256";
  const options: { extractable: true; crv?: string; modulusLength?: number } = { extractable: true };
  if (like.kty === "OKP") options.crv = like.crv ?? "Ed25519";
  if (like.kty === "RSA" && like.n)
    options.modulusLength = Math.max(2048, Buffer.from(like.n, "base64url").length * 8);
  const { privateKey } = await generateKeyPair(alg, options);
  return { ...(await exportJWK(privateKey)), alg, kid, use: "sig" };
}

/** The first wait between two tries, doubled after each try up to the last. */
const FIRST_GAP_MS = 250;
const MAX_GAP_MS = 8000;

/** How a Receiver's following of a key change went: its last answer, how many SETs, how long. */
interface Followed {
  readonly o: DeliveryOutcome;
  readonly tries: number;
  readonly ms: number;
  /** How often jwks_uri was fetched while the check waited. */
  readonly fetches: number;
}

/**
 * Sends a fresh SET (`make`) while `again(outcome)` holds, until `budgetMs` is spent: a
 * Receiver follows a change at jwks_uri only when it fetches the key set again, which it may do
 * only so often (a cooldown, a cache lifetime). Between two tries the check waits for its next
 * fetch of jwks_uri, at most a gap that grows from 250 ms to 8 s, never past the deadline; a
 * last SET goes at the deadline. Never a fixed sleep: a Receiver that fetches is answered at once.
 */
async function follow(
  k: ReceiverClient,
  budgetMs: number,
  make: () => Promise<BuiltSet>,
  label: string,
  again: (o: DeliveryOutcome) => boolean,
  tags: readonly string[] = [],
): Promise<Followed> {
  const started = Date.now();
  const deadline = started + budgetMs;
  const before = (await k.mock.jwksFetches()).count;
  let gap = FIRST_GAP_MS;
  for (let tries = 1; ; tries++) {
    const s = await make();
    const o = await deliver(k, s.token, {
      label: tries === 1 ? label : `${label} (sent again: try ${tries})`,
      jti: s.jti,
      ...(tags.length > 0 ? { tags } : {}),
    });
    const seen = (await k.mock.jwksFetches()).count;
    const left = deadline - Date.now();
    if (!again(o) || left <= 0 || k.c.signal.aborted)
      return { o, tries, ms: Date.now() - started, fetches: seen - before };
    await k.mock.waitForJwksFetch(seen, Math.min(gap, left));
    gap = Math.min(gap * 2, MAX_GAP_MS);
  }
}

const took = (f: Followed): string =>
  `${f.tries} SET(s) over ${f.ms} ms, jwks_uri fetched ${f.fetches} time(s) meanwhile`;

/**
 * SSF (the Transmitter's jwks_uri; RFC 8417 §5 key handling): a Receiver follows a key
 * rotation at jwks_uri, and trusts only what the Transmitter publishes there. The rotation
 * overlaps as a real one does (the new key published beside the old first), and the Receiver
 * gets `keyRotationTimeoutMs` to follow each change: a SET is sent again, a fresh one each
 * time, until it does. It changes the Transmitter's keys for everything running beside it, so it
 * runs alone, after every other check that delivers SETs (`rotation.last.test.ts`); the
 * original key set is published again when it ends.
 */
export const keyChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.key-rotation",
    title:
      "after the Transmitter publishes a new key at jwks_uri beside the old one, a SET signed with the new key's kid is accepted; once the old key is dropped, SETs signed by it or under a kid in no published set are refused",
    requirements: ["CAEPR-KEY-ROTATION", "CAEPR-KEY-ROTATION-STRANGER", ERR_CODE],
    // Two changes of the keys, each given at most keyRotationTimeoutMs (at most 120 s).
    timeoutMs: 300_000,
    async run(c) {
      const k = new ReceiverClient(c);
      const budget = c.profile.keyRotationTimeoutMs;
      await baseline(c, k, "a valid SET signed with the current key (baseline)");
      const old = k.signingKey;
      const fresh = await newKeyLike(old, `idc-rotated-${randomBytes(6).toString("hex")}`);
      c.secret(JSON.stringify(fresh), "ROTATED_SIGNING_KEY");
      if (typeof fresh.d === "string") c.secret(fresh.d, "ROTATED_SIGNING_KEY_D");
      const subject = (await k.session("session hook (key rotation)"))?.complex ?? k.subjects.fresh().complex;
      const refusedOnly = (o: DeliveryOutcome): boolean => o.kind === "refused";
      // The new key beside the old one: a Receiver that reads the set now can verify both.
      await k.mock.publishJwks([publicOf(fresh), publicOf(old)]);
      try {
        const rotated = await follow(
          k,
          budget,
          () => k.set("session-revoked", { subject, key: fresh }),
          "a SET signed with the new key (new kid)",
          refusedOnly,
        );
        accepted(
          c,
          "CAEPR-KEY-ROTATION",
          rotated.o,
          `a SET signed with the key just published at jwks_uri (${took(rotated)}, within keyRotationTimeoutMs ${budget})`,
        );
        if (rotated.o.kind === "accepted") c.note(`the Receiver took the new key after ${took(rotated)}`);
        // The old key dropped: its kid is in no set any more, so its SET is no longer the
        // Transmitter's. Only judged once the Receiver showed it read the new set: one that
        // never fetched it again cannot know the old key is gone (CAEPR-KEY-ROTATION's finding).
        await k.mock.publishJwks([publicOf(fresh)]);
        // A key the Transmitter never published, under a kid of no set, of the same algorithm.
        // Sent first: an unknown kid is also what makes many Receivers read jwks_uri again.
        const { privateKey } = await attackerKey(old.alg ?? "ES256", old);
        const stranger = {
          ...(await exportJWK(privateKey)),
          alg: old.alg ?? "ES256",
          kid: `idc-never-published-${randomBytes(4).toString("hex")}`,
        };
        const foreign = await k.set("session-revoked", { subject, key: stranger });
        const fo = await deliver(k, foreign.token, {
          label: "a SET under a kid in no published key set",
          jti: foreign.jti,
          tags: [ATTACK],
        });
        refused(
          c,
          "CAEPR-KEY-ROTATION-STRANGER",
          fo,
          "a SET under a kid in no published key set (after the rotation)",
        );
        let judged = judgeErr(c, fo, "a SET under a kid in no published key set", KEY_ERRS);
        if (rotated.o.kind === "accepted") {
          // A Receiver may keep a fetched set for a while: the same patience as for the new key.
          const dropped = await follow(
            k,
            budget,
            () => k.set("session-revoked", { subject }),
            "a SET signed with the key removed from jwks_uri",
            (o) => o.kind === "accepted",
            [ATTACK],
          );
          refused(
            c,
            "CAEPR-KEY-ROTATION-STRANGER",
            dropped.o,
            `a SET signed with the key removed from jwks_uri (${took(dropped)}, within keyRotationTimeoutMs ${budget})`,
          );
          if (dropped.o.kind === "refused")
            c.note(`the Receiver let the removed key go after ${took(dropped)}`);
          judged = judgeErr(c, dropped.o, "a SET signed with the removed key", KEY_ERRS) || judged;
        } else {
          c.partly(
            "CAEPR-KEY-ROTATION-STRANGER",
            "the removed key was not probed: the Receiver did not take the new key (see CAEPR-KEY-ROTATION), so it cannot know the old one is gone",
            "dependency",
          );
        }
        errNotJudged(c, judged);
      } finally {
        // The original key set again, whatever happened above.
        await k.mock.publishJwks([publicOf(old)]);
      }
      // The original key set is back; whether the Receiver trusts it again at once is only
      // noted: a Receiver may refetch a kid it just found unknown only after a while, and no
      // check delivering SETs runs after this one (rotation.last.test.ts).
      const back = await k.set("session-revoked", { subject });
      const bo = await deliver(k, back.token, {
        label: "a SET signed with the original key, published again",
        jti: back.jti,
      });
      if (bo.kind !== "accepted")
        c.note(
          `after the original key set was published again, a SET signed with it was not accepted yet (${bo.said})`,
        );
    },
  }),
];
