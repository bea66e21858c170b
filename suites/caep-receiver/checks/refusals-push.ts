import { randomBytes } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient } from "../receiver-client.js";
import { ATTACK, baseline, deliver, refused, TRANSPORT, type DeliveryOutcome } from "../delivery.js";
import { errNotJudged, ERR_CODE, judgeErr } from "./refuse.js";

/** Content types that are not RFC 8935's application/secevent+jwt. */
const WRONG_TYPES = ["application/json", "application/jwt", "text/plain"];

/**
 * The probes' tags: each must be refused, and HTTP answers the request around the SET with
 * its own statuses (401, 403, 413, 415) and bodies, so the 400 and error-format observers
 * leave them out.
 */
const TAGS = [ATTACK, TRANSPORT];

/**
 * An oversize body may be answered by closing the connection, before or after a 413 (Go's
 * net/http closes once it has refused 256 KiB; the client then sees a reset or a broken pipe,
 * depending on timing): the SET was not taken, which is all CAEPR-BODY-SIZE asks.
 */
function droppedIsRefused(o: DeliveryOutcome): DeliveryOutcome {
  if (o.kind !== "other" || o.status !== undefined) return o;
  return { ...o, kind: "refused", said: `${o.said}: not taken, which refuses it` };
}

/**
 * RFC 8935 §2 (public-spec-facts §4 push delivery): what only a push endpoint can get wrong,
 * the request around the SET: its media type, its size, its authorization.
 */
export const transportChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.refuse-push-transport",
    title:
      "a pushed SET with a Content-Type other than application/secevent+jwt, a body over the stated size, or without or with a wrong Authorization is refused",
    requirements: ["CAEPR-CONTENT-TYPE", "CAEPR-BODY-SIZE", "CAEPR-PUSH-AUTH", ERR_CODE],
    async run(c) {
      const k = new ReceiverClient(c);
      const stream = await k.stream();
      if (stream.delivery !== "push")
        c.skip("push only: the profile's delivery is poll (RFC 8936), where no SET is pushed", "not-offered");
      await baseline(c, k);
      const subject =
        (await k.session("session hook (push transport)"))?.complex ?? k.subjects.fresh().complex;
      let judged = false;
      for (const type of WRONG_TYPES) {
        const s = await k.set("session-revoked", { subject });
        const label = `a valid SET sent as ${type}`;
        // Any 4xx refuses it: 400 (RFC 8935) and 415 (HTTP) alike.
        const o = await deliver(k, s.token, { label, contentType: type, tags: TAGS });
        refused(c, "CAEPR-CONTENT-TYPE", o, label);
        judged = judgeErr(c, o, label, ["invalid_request"]) || judged;
      }
      // A valid SET, signed, whose size alone is wrong: four times what the profile says the
      // Receiver takes.
      const max = c.profile.maxBodyBytes;
      const big = await k.set("session-revoked", {
        subject,
        claims: { reason_admin: { en: "x".repeat(max * 4) } },
      });
      const sizeLabel = `a valid SET of ${big.token.length} bytes (over maxBodyBytes ${max})`;
      const size = droppedIsRefused(await deliver(k, big.token, { label: sizeLabel, tags: TAGS }));
      refused(c, "CAEPR-BODY-SIZE", size, sizeLabel);
      judged = judgeErr(c, size, sizeLabel, ["invalid_request"]) || judged;
      errNotJudged(c, judged);
      if (stream.authorization === undefined) {
        c.skipOnly(
          "CAEPR-PUSH-AUTH",
          "not offered: the Receiver's stream asks for no authorization_header, so there is none to withhold",
          "not-offered",
        );
        return;
      }
      const wrong = `Bearer idc-wrong-${randomBytes(12).toString("base64url")}`;
      for (const [label, authorization] of [
        ["a valid SET without Authorization", null],
        ["a valid SET with a wrong Authorization", wrong],
      ] as const) {
        const s = await k.set("session-revoked", { subject });
        const o = await deliver(k, s.token, { label, authorization, tags: TAGS });
        // 401/403 (HTTP authentication), or 400 with the RFC 8935 §2.4 codes for it.
        const ok =
          (o.kind === "refused" && (o.status === 401 || o.status === 403)) ||
          (o.status === 400 && (o.err === "authentication_failed" || o.err === "access_denied"));
        c.check("CAEPR-PUSH-AUTH", ok, {
          ...(ok
            ? {}
            : {
                message:
                  o.kind === "accepted"
                    ? `${label}: accepted: the Receiver took a SET from an unauthenticated Transmitter`
                    : `${label}: not refused as unauthenticated`,
              }),
          expected: `${label}: 401 or 403, or 400 with err authentication_failed or access_denied`,
          actual: o.said,
          ...(o.res ? { res: o.res } : {}),
          kind: o.kind === "accepted" ? "accepted" : o.status === 400 ? "wrong-code" : "wrong-status",
        });
      }
    },
  }),
];
