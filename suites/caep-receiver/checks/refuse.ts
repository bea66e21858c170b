import { randomBytes } from "node:crypto";
import type { CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { CaepReceiverProfile } from "../profile.js";
import type { ReceiverClient } from "../receiver-client.js";
import {
  ATTACK,
  deliver,
  deliverBatch,
  isDeliveryErrorCode,
  REFUSAL_STATUS,
  refused,
  type DeliveryOutcome,
} from "../delivery.js";

type Ctx = CheckContext<CaepReceiverProfile>;

export const ERR_CODE = "CAEPR-PUSH-ERR-CODE";

/**
 * The errs that fit a key or signature the Receiver does not accept: RFC 8935 §2.4 invalid_key
 * ("keys used to ... sign the SET ... unacceptable"), or authentication_failed ("could not
 * authenticate the SET Transmitter"), a defensible reading of a SET whose signature fails.
 */
export const KEY_ERRS = ["invalid_key", "authentication_failed"] as const;

/** One SET the Receiver must refuse, the requirement that says so, and the err codes that fit. */
export interface RefusalCase {
  readonly id: string;
  readonly label: string;
  readonly token: string;
  /** The key the poll mock files it under (a SET without jti, or no SET at all, needs one). */
  readonly jti?: string;
  /** RFC 8935 §2.4 codes that fit the defect (CAEPR-PUSH-ERR-CODE). */
  readonly fits: readonly string[];
}

/** A jti for the mock to file a token under that carries none of its own. */
export const syntheticJti = (): string => `idc-nojti-${randomBytes(6).toString("hex")}`;

/**
 * Judges CAEPR-PUSH-ERR-CODE on a refusal: when the Receiver refused with an err of the RFC set,
 * that err fits the defect. A refusal without such an err is the error-format observer's; an
 * acceptance is the refusal requirement's. True when it judged.
 */
export function judgeErr(c: Ctx, o: DeliveryOutcome, label: string, fits: readonly string[]): boolean {
  // The requirement speaks of push answers; setErrs codes are CAEPR-POLL-SETERRS's.
  if (o.poll !== undefined) return false;
  if (o.kind !== "refused" || !isDeliveryErrorCode(o.err)) return false;
  // Another status is CAEPR-PUSH-REFUSAL-400's finding; its err is not judged twice.
  if (o.status !== undefined && o.status !== REFUSAL_STATUS) return false;
  c.check(ERR_CODE, fits.includes(o.err!), {
    message: `${label}: refused with an err that does not fit the defect`,
    expected: `${label}: err ${fits.join(" or ")}`,
    actual: o.said,
    ...(o.res ? { res: o.res } : {}),
    kind: "wrong-code",
  });
  return true;
}

/**
 * Delivers every case (poll: as one batch) and decides each case's requirement: refused
 * (push a 4xx, poll reported in setErrs and never acknowledged), and its err fits. Returns
 * whether CAEPR-PUSH-ERR-CODE was judged at all.
 */
export async function refuseAll(c: Ctx, k: ReceiverClient, cases: readonly RefusalCase[]): Promise<boolean> {
  const s = await k.stream();
  const jtis = cases.map((x) => x.jti ?? jtiOrSynthetic(x.token));
  let outcomes: DeliveryOutcome[];
  if (s.delivery === "poll") {
    outcomes = await deliverBatch(
      k,
      cases.map((x, i) => ({ jti: jtis[i]!, token: x.token, label: x.label })),
    );
  } else {
    outcomes = [];
    for (const x of cases) outcomes.push(await deliver(k, x.token, { label: x.label, tags: [ATTACK] }));
  }
  let judged = false;
  cases.forEach((x, i) => {
    const o = outcomes[i]!;
    refused(c, x.id, o, x.label);
    if (judgeErr(c, o, x.label, x.fits)) judged = true;
  });
  return judged;
}

function jtiOrSynthetic(token: string): string {
  try {
    const p = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as unknown;
    const jti = (p as { jti?: unknown } | null)?.jti;
    return typeof jti === "string" && jti.length > 0 && jti.length <= 200 ? jti : syntheticJti();
  } catch {
    return syntheticJti();
  }
}

/** Ends a check that judged no err: CAEPR-PUSH-ERR-CODE is not observed there. */
export function errNotJudged(c: Ctx, judged: boolean): void {
  if (judged) return;
  if (c.profile.delivery === "poll")
    c.skipOnly(
      ERR_CODE,
      "push only: the requirement speaks of push answers, and the profile's delivery is poll (RFC 8936)",
      "not-offered",
    );
  else
    c.skipOnly(
      ERR_CODE,
      "no refusal of this check was a 400 carrying an err of the RFC 8935 §2.4 codes to judge (a refusal with another status is CAEPR-PUSH-REFUSAL-400's)",
    );
}

/** Quote a member for a label. */
export const shown = (v: unknown): string => quote(v, 60);
