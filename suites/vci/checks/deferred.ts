import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { VciProfile } from "../profile.js";
import {
  challengeKind,
  isError,
  isObject,
  needsProof,
  refusalKind,
  said,
  Vci,
  type CredentialReply,
  type Ctx,
  credentialsKind,
} from "../client.js";
import { issuerKeyCache, judgeCredentials } from "../judge-credentials.js";
import { credentialValues, stranger } from "../session.js";

const MAX_POLLS = 20;

/** A Bearer challenge anywhere in a WWW-Authenticate value (several challenges may be comma-joined). */
const BEARER_CHALLENGE = /(^|,)\s*bearer(\s|,|$)/i;

const positive = (x: unknown): boolean => typeof x === "number" && Number.isFinite(x) && x > 0;

/** The Wallet waits as the issuer asks (interval seconds) before polling again; never past `until`. */
function wait(seconds: number, until: number, signal: AbortSignal): Promise<void> {
  const ms = Math.min(Math.max(seconds, 0) * 1000, Math.max(0, until - Date.now()));
  return new Promise((resolve) => {
    // The listener goes when the wait ends, so polls do not pile listeners on the check's signal.
    const done = (): void => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** specs/000 Components: Deferred Credential Endpoint; public §8.3 and §9. */
export const deferredChecks = [
  defineCheck<VciProfile>({
    id: "vci.deferred",
    title:
      "a deferred issuance answers 202 with transaction_id and interval; polls answer 202 with the same id while pending, then 200 with credentials; a delivered id is invalid_transaction_id",
    requirements: [
      "VCI-DEFERRED-202",
      "VCI-DEFERRED-PENDING",
      "VCI-DEFERRED-ISSUED",
      "VCI-DEFERRED-USED",
      "VCI-CRED-FORMAT",
      "VCI-CRED-BOUND-TO-PROOF",
      "VCI-CRED-SIGNATURE",
    ],
    // The profile's deferral budget (at most 60 s) and the requests around it.
    timeoutMs: 90_000,
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("deferred_credential_endpoint");
      const o = await v.offer("deferred");
      const [id] = await v.usableConfigurations(o);
      const conf = await v.configuration(id!);
      const { token } = await v.accessToken(o);
      const key = await v.keyFor(conf);
      const first = await v.credential(token, {
        credential_configuration_id: id,
        proofs: { jwt: [await v.proof(key)] },
      });
      if (first.res.status === 200) c.skip("the deferred offer's credential was issued at once", "other");
      const b = first.body;
      c.require(
        "VCI-DEFERRED-202",
        first.res.status === 202 &&
          typeof b.transaction_id === "string" &&
          positive(b.interval) &&
          b.credentials === undefined,
        {
          expected: "202 with transaction_id and a positive interval, without credentials",
          actual: first.decryptError ?? `${first.res.status} ${quote(b)}`,
          res: first.res,
          kind:
            first.res.status !== 202
              ? "wrong-status"
              : first.decryptError !== undefined || (!first.encrypted && !isObject(first.res.json))
                ? "malformed"
                : b.transaction_id === undefined || b.interval === undefined
                  ? "missing"
                  : typeof b.transaction_id !== "string" || typeof b.interval !== "number"
                    ? "malformed"
                    : "wrong-value",
        },
      );
      // The first answer decides VCI-DEFERRED-202 whole, whatever the polls bring.
      c.complete("VCI-DEFERRED-202");
      const txId = b.transaction_id as string;
      c.secret(txId, "TRANSACTION_ID");
      let interval = b.interval as number;
      let reply: CredentialReply | undefined;
      let pending = 0;
      const until = Date.now() + c.profile.deferredTimeoutMs;
      for (let i = 0; i < MAX_POLLS && Date.now() < until; i++) {
        await wait(interval, until, c.signal);
        reply = await v.credential(token, { transaction_id: txId }, { url, label: `deferred poll ${i + 1}` });
        if (reply.res.status !== 202) break;
        pending++;
        const p = reply.body;
        c.check("VCI-DEFERRED-PENDING", p.transaction_id === txId && positive(p.interval), {
          expected: "202 with the same transaction_id and an interval",
          actual: `transaction_id ${p.transaction_id === txId ? "the same" : quote(p.transaction_id ?? null)}, interval ${quote(p.interval ?? null)}`,
          res: reply.res,
        });
        if (positive(p.interval)) interval = p.interval as number;
      }
      if (pending === 0)
        c.skipOnly("VCI-DEFERRED-PENDING", "the first poll already delivered the credential", "other");
      const done = reply!;
      // Still pending when the budget ends is not a failure: the document sets no deadline.
      if (done.res.status === 202)
        c.skip(
          `still pending after ${pending} polls in ${c.profile.deferredTimeoutMs} ms (suites.vci.deferredTimeoutMs), waiting the interval the issuer asked for`,
          "not-exercised",
        );
      const creds = done.body.credentials;
      c.require("VCI-DEFERRED-ISSUED", done.res.status === 200 && Array.isArray(creds) && creds.length > 0, {
        expected: "200 with credentials",
        actual: done.decryptError ?? said(done.res),
        res: done.res,
        kind: credentialsKind(done),
      });
      // What a deferred delivery hands over is held to what an immediate one is.
      await judgeCredentials(c, {
        id: id!,
        conf,
        values: credentialValues(done.body),
        res: done.res,
        key: needsProof(conf) ? key : "unbound",
        keysOf: issuerKeyCache(c),
      });
      const again = await v.credential(
        token,
        { transaction_id: txId },
        { url, label: "the delivered transaction_id again" },
      );
      c.check("VCI-DEFERRED-USED", isError(again.res, 400, "invalid_transaction_id"), {
        expected: "400 invalid_transaction_id",
        actual: again.res.status === 200 ? "200: delivered again" : said(again.res),
        res: again.res,
        kind: refusalKind(again.res),
      });
    },
  }),
  // A check of its own, so the verdicts of vci.deferred stay as they are.
  defineCheck<VciProfile>({
    id: "vci.deferred-access",
    title:
      "the Deferred Credential Endpoint refuses a request without an access token or with one never issued (401 with a Bearer challenge), a transaction_id sent with another access token, and a request without transaction_id",
    requirements: ["VCI-DEFERRED-TOKEN", "VCI-DEFERRED-OTHER-TOKEN", "VCI-DEFERRED-NO-ID"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("deferred_credential_endpoint");
      const o = await v.offer("deferred");
      const [id] = await v.usableConfigurations(o);
      const conf = await v.configuration(id!);
      const { token } = await v.accessToken(o);
      const first = await v.credential(token, {
        credential_configuration_id: id,
        proofs: { jwt: [await v.proof(await v.keyFor(conf))] },
      });
      if (first.res.status === 200) c.skip("the deferred offer's credential was issued at once", "other");
      const txId = first.body.transaction_id;
      if (first.res.status !== 202 || typeof txId !== "string")
        c.skip(
          `the deferred Credential Request answered ${said(first.res)}: see VCI-DEFERRED-202`,
          "dependency",
        );
      c.secret(txId, "TRANSACTION_ID");

      const forged = stranger("idc");
      c.secret(forged, "UNKNOWN_ACCESS_TOKEN");
      for (const [token, what] of [
        [undefined, "without an access token"],
        [forged, "with an access token never issued"],
      ] as const) {
        const { res } = await v.credential(
          token,
          { transaction_id: txId },
          { url, label: `deferred request ${what}` },
        );
        const challenge = res.header("www-authenticate") ?? "";
        c.check("VCI-DEFERRED-TOKEN", res.status === 401 && BEARER_CHALLENGE.test(challenge), {
          expected: `a deferred request ${what}: 401 with WWW-Authenticate: Bearer`,
          actual: `${said(res)}; WWW-Authenticate ${challenge ? challenge.slice(0, 120) : "absent"}`,
          res,
          kind: challengeKind(res),
        });
        if (token !== undefined && res.status === 401 && !/invalid_token/.test(challenge))
          c.note('the 401 for an unknown token does not say error="invalid_token" in its challenge');
      }

      const missing = await v.credential(
        token,
        {},
        { url, label: "deferred request without transaction_id" },
      );
      c.check(
        "VCI-DEFERRED-NO-ID",
        isError(missing.res, 400, "invalid_credential_request") ||
          isError(missing.res, 400, "invalid_transaction_id"),
        {
          expected: "400 invalid_credential_request (or invalid_transaction_id)",
          actual: said(missing.res),
          res: missing.res,
          kind: refusalKind(missing.res),
        },
      );

      // Last, since an issuer that serves it may count it as a poll of the transaction.
      const other = await v.accessToken(await v.offer("preAuthorized"));
      const foreign = await v.credential(
        other.token,
        { transaction_id: txId },
        { url, label: "transaction_id with another access token" },
      );
      const status = foreign.res.status;
      c.check("VCI-DEFERRED-OTHER-TOKEN", status >= 400 && status < 500, {
        expected: "refused (4xx; public §9: 400 invalid_transaction_id)",
        actual:
          status === 200 || status === 202 ? `${status}: served to another access token` : said(foreign.res),
        res: foreign.res,
        // Any 4xx meets it: a 2xx served the transaction, anything else is another status.
        kind: refusalKind(foreign.res),
      });
    },
  }),
];
