import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { defineCheck } from "../../../src/engine/check.js";
import { PRIVATE_JWK_MEMBERS } from "../../../src/engine/profile-keys.js";
import { attackerKey } from "../../../src/engine/token-attacks.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient } from "../receiver-client.js";
import { accepted, baseline, deliver, refused } from "../delivery.js";
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

/**
 * SSF (the Transmitter's jwks_uri; RFC 8417 §5 key handling): a Receiver follows a key
 * rotation at jwks_uri, and trusts only what the Transmitter publishes there. It changes the
 * Transmitter's keys for everything running beside it, so it runs alone, last
 * (`keys.last.test.ts`), and the original key set is back in place when it ends.
 */
export const keyChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.key-rotation",
    title:
      "after the Transmitter publishes a new key at jwks_uri (the old one removed), a SET signed with the new key's kid is accepted, and SETs signed by the removed key or under a kid in no published set are refused",
    requirements: ["CAEPR-KEY-ROTATION", "CAEPR-KEY-ROTATION-STRANGER", ERR_CODE],
    async run(c) {
      const k = new ReceiverClient(c);
      await baseline(c, k, "a valid SET signed with the current key (baseline)");
      const old = k.signingKey;
      const fresh = await newKeyLike(old, `idc-rotated-${randomBytes(6).toString("hex")}`);
      c.secret(JSON.stringify(fresh), "ROTATED_SIGNING_KEY");
      if (typeof fresh.d === "string") c.secret(fresh.d, "ROTATED_SIGNING_KEY_D");
      const subject = (await k.session("session hook (key rotation)"))?.complex ?? k.subjects.fresh().complex;
      const before = await k.mock.jwksFetches();
      await k.mock.publishJwks([publicOf(fresh)]);
      try {
        const rotated = await k.set("session-revoked", { subject, key: fresh });
        const o = await deliver(k, rotated.token, {
          label: "a SET signed with the new key (new kid)",
          jti: rotated.jti,
        });
        accepted(c, "CAEPR-KEY-ROTATION", o, "a SET signed with the key just published at jwks_uri");
        const after = await k.mock.jwksFetches();
        c.note(`jwks_uri was fetched ${after.count - before.count} time(s) after the rotation`);
        // The removed key: its kid is in no set any more, so its SET is no longer the Transmitter's.
        // Only judged once the Receiver showed it read the new set: one that never fetched it
        // again cannot know the old key is gone (that is CAEPR-KEY-ROTATION's finding).
        let judged = false;
        if (o.kind === "accepted") {
          const stale = await k.set("session-revoked", { subject });
          const so = await deliver(k, stale.token, {
            label: "a SET signed with the key removed from jwks_uri",
            jti: stale.jti,
            tags: ["attack"],
          });
          refused(c, "CAEPR-KEY-ROTATION-STRANGER", so, "a SET signed with the key removed from jwks_uri");
          judged = judgeErr(c, so, "a SET signed with the removed key", KEY_ERRS);
        } else {
          c.partly(
            "CAEPR-KEY-ROTATION-STRANGER",
            "the removed key was not probed: the Receiver did not take the new key (see CAEPR-KEY-ROTATION), so it cannot know the old one is gone",
            "dependency",
          );
        }
        // A key the Transmitter never published, under a kid of no set, of the same algorithm.
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
          tags: ["attack"],
        });
        refused(
          c,
          "CAEPR-KEY-ROTATION-STRANGER",
          fo,
          "a SET under a kid in no published key set (after the rotation)",
        );
        judged = judgeErr(c, fo, "a SET under a kid in no published key set", ["invalid_key"]) || judged;
        errNotJudged(c, judged);
      } finally {
        // Back to the key the rest of the run signs with, whatever happened above.
        await k.mock.publishJwks([publicOf(old)]);
      }
      const back = await k.set("session-revoked", { subject });
      const bo = await deliver(k, back.token, {
        label: "a SET signed with the original key, restored",
        jti: back.jti,
      });
      if (bo.kind !== "accepted")
        c.note(`after the original key set was restored, a SET signed with it was not accepted (${bo.said})`);
    },
  }),
];
