import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HolderKey } from "../../../mocks/wallet/keys.js";
import type { ParsedCredential } from "../../../mocks/wallet/credential.js";
import { jwkThumbprint } from "../../../mocks/wallet/thumbprint.js";
import type { VciProfile } from "../profile.js";
import { isError, isObject, needsProof, said, Vci, type Ctx, type CredentialReply } from "../client.js";
import { BINDINGS, bindingOf, issuerKeyCache, judgeCredentials } from "../judge-credentials.js";
import { forgeProof, refusal } from "./proofs.js";
import {
  baseline,
  credentialValues,
  readableFormat,
  readCredential,
  session,
  stranger,
  type Session,
} from "../session.js";

const hasNonce = async (v: Vci): Promise<boolean> => (await v.metadata()).nonce_endpoint !== undefined;

/** Most proofs the Wallet puts in one request; a larger batch_size is not probed. */
const MAX_PROOFS = 32;

/** batch_size from the metadata, or a skip: not offered, below 2, or more than the Wallet sends. */
async function batchSize(c: Ctx, v: Vci, room: number): Promise<number> {
  const b = (await v.metadata()).batch_credential_issuance;
  if (b === undefined)
    c.skip("the issuer does not offer batch issuance (no batch_credential_issuance)", "not-offered");
  const n = isObject(b) ? b.batch_size : undefined;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 2)
    c.skip(
      `batch_credential_issuance.batch_size is ${quote(n)}, not an integer of 2 or more: see VCI-META-BATCH-SIZE`,
      "dependency",
    );
  if (n + room > MAX_PROOFS)
    c.skip(
      `batch_size ${n} asks for more than the ${MAX_PROOFS} proofs the Wallet sends in one request`,
      "other",
    );
  return n;
}

/** A session whose configuration takes proofs. */
async function provingSession(c: Ctx, v: Vci): Promise<Session> {
  const s = await session(v);
  if (!needsProof(s.conf))
    c.skip(`configuration ${s.id} binds no key, so its requests carry no proofs`, "not-offered");
  return s;
}

/** Makes the last proof of a batch with one defect, from its key and the request's c_nonce. */
type LastProof = (key: HolderKey, nonce: string | undefined) => Promise<string>;

/**
 * A request with `n` proofs, each of its own fresh key; all proofs carry the one fresh c_nonce
 * of this request (as a Wallet fetching one nonce per request does). `last` makes the last
 * proof instead, to probe whether every proof of a batch is verified, not the first only.
 */
async function batchRequest(
  v: Vci,
  s: Session,
  n: number,
  label: string,
  last?: LastProof,
): Promise<{ reply: CredentialReply; keys: HolderKey[] }> {
  const keys: HolderKey[] = [];
  for (let i = 0; i < n; i++) keys.push(await v.keyFor(s.conf));
  const nonce = await v.nonce();
  const proofs: string[] = [];
  for (const [i, key] of keys.entries())
    proofs.push(
      i === n - 1 && last !== undefined
        ? await last(key, nonce)
        : await v.proof(key, nonce !== undefined ? { nonce } : {}),
    );
  const reply = await v.credential(
    s.token,
    { ...v.target(s.tokenRes, s.id), proofs: { jwt: proofs } },
    { label },
  );
  return { reply, keys };
}

/** Where two credentials of a batch share a disclosure salt or an issuer signature (bounded list). */
function sharedCryptoData(read: readonly { i: number; parsed: ParsedCredential }[]): string[] {
  const salts = new Map<string, number>();
  const signatures = new Map<string, number>();
  const out: string[] = [];
  for (const { i, parsed } of read) {
    const sig = parsed.issuerJwt.slice(parsed.issuerJwt.lastIndexOf(".") + 1);
    const earlierSig = sig === "" ? undefined : signatures.get(sig);
    if (earlierSig !== undefined)
      out.push(`credentials[${i}] has the issuer signature of credentials[${earlierSig}]`);
    else if (sig !== "") signatures.set(sig, i);
    const own = new Set<string>();
    for (const d of parsed.disclosures) {
      if (d.salt === "" || own.has(d.salt)) continue;
      own.add(d.salt);
      const earlier = salts.get(d.salt);
      if (earlier !== undefined) {
        out.push(
          `credentials[${i}] repeats a disclosure salt of credentials[${earlier}]${d.name ? ` (${d.name})` : ""}`,
        );
      } else salts.set(d.salt, i);
    }
  }
  return out.length > 10 ? [...out.slice(0, 10), `and ${out.length - 10} more`] : out;
}

/** specs/000 Rules 1, Credential Request (proofs at most batch_size); public §8.3. */
export const batchChecks = [
  defineCheck<VciProfile>({
    id: "vci.batch",
    title:
      "a request with batch_size proofs of distinct keys gets that many credentials, each bound to its own proof's key, all different",
    requirements: ["VCI-BATCH", "VCI-BATCH-DISTINCT", "VCI-CRED-FORMAT", "VCI-CRED-SIGNATURE"],
    async run(c) {
      const v = new Vci(c);
      const n = await batchSize(c, v, 0);
      const s = await provingSession(c, v);
      const { reply: r, keys } = await batchRequest(
        v,
        s,
        n,
        `credential request with ${n} proofs (batch_size)`,
      );
      // A refusal counts only if the same request with one proof succeeds.
      if (r.res.status !== 200) await baseline(v);
      c.require("VCI-BATCH", r.res.status === 200, {
        expected: `200 with ${n} credentials for ${n} proofs (batch_size ${n})`,
        actual: said(r.res),
        res: r.res,
        kind: "wrong-status",
      });
      if (r.decryptError !== undefined)
        c.skip(
          `the encrypted 200 response could not be read (${r.decryptError}): see VCI-ENC-RESPONSE`,
          "dependency",
        );
      if (!readableFormat(s.conf.format))
        c.skip(
          `configuration ${s.id} has format ${quote(s.conf.format)}; the Wallet reads dc+sd-jwt and jwt_vc_json`,
          "other",
        );
      const values = credentialValues(r.body);
      const problems: string[] = [];
      if (values.length !== n) problems.push(`${values.length} credentials for ${n} proofs`);
      // Which proof key each credential is bound to; the order of the response is free.
      const wanted = new Map(keys.map((k, i) => [k.thumbprint, i]));
      const proofKeys = keys.map((k) => k.publicJwk);
      const boundTo = new Map<string, number[]>();
      const read: { i: number; parsed: ParsedCredential }[] = [];
      for (const [i, value] of values.entries()) {
        const { parsed } = readCredential(s.conf, value, `credentials[${i}]`);
        if (!parsed) {
          problems.push(`credentials[${i}] cannot be read (see VCI-CRED-FORMAT)`);
          continue;
        }
        read.push({ i, parsed });
        const bound = bindingOf(parsed, proofKeys);
        const t = "key" in bound ? jwkThumbprint(bound.key) : undefined;
        if (t === undefined) {
          problems.push(
            `credentials[${i}]: ${"problem" in bound ? bound.problem : "bound to no usable key"}`,
          );
          continue;
        }
        boundTo.set(t, [...(boundTo.get(t) ?? []), i]);
      }
      for (const [t, i] of wanted) {
        const got = boundTo.get(t) ?? [];
        if (got.length !== 1 && values.length === n)
          problems.push(
            `the key of proof ${i} binds ${got.length === 0 ? "no credential" : `credentials ${got.join(", ")}`}`,
          );
      }
      c.check("VCI-BATCH", problems.length === 0, {
        expected: `${n} credentials, each bound (${BINDINGS(s.conf.format)}) to the key of a different one of the ${n} proofs`,
        actual: problems.join("; "),
        res: r.res,
      });
      // Every credential of the batch is held to what a single one is (format, issuer signature).
      await judgeCredentials(c, {
        id: s.id,
        conf: s.conf,
        values,
        res: r.res,
        key: undefined,
        keysOf: issuerKeyCache(c),
      });
      if (read.length < 2) {
        c.skipOnly(
          "VCI-BATCH-DISTINCT",
          `the batch response carries ${read.length} readable credential(s): see VCI-BATCH`,
          "dependency",
        );
        return;
      }
      // Cryptographic data (Rules 1): no disclosure salt and no issuer signature may recur
      // across credentials; one key for all is VCI-BATCH's finding, not this one's.
      const shared = sharedCryptoData(read);
      c.check("VCI-BATCH-DISTINCT", shared.length === 0, {
        expected: "the credentials of one batch share no disclosure salt and no issuer signature",
        actual: shared.join("; "),
        res: r.res,
      });
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.batch-proofs-each",
    title:
      "every proof of a batch is verified: a batch whose last proof alone is signed by another key, has another aud or a nonce never issued is refused like a single such proof",
    requirements: ["VCI-PROOF-SIGNATURE", "VCI-PROOF-AUD", "VCI-NONCE-INVALID"],
    async run(c) {
      const v = new Vci(c);
      const n = await batchSize(c, v, 0);
      // Baseline: the same batch with every proof valid is accepted.
      const s0 = await provingSession(c, v);
      const ok = await batchRequest(v, s0, n, `credential request with ${n} valid proofs (baseline)`);
      if (ok.reply.res.status !== 200)
        c.skip(
          `a request with ${n} valid proofs answered ${said(ok.reply.res)}: see VCI-BATCH`,
          "dependency",
        );
      const probes: [string, string, string, LastProof][] = [
        [
          "VCI-PROOF-SIGNATURE",
          "invalid_proof",
          "the last proof signed by another key than its header jwk",
          async (key, nonce) =>
            forgeProof(await v.proof(key, nonce !== undefined ? { nonce } : {}), key, "stranger-key"),
        ],
        [
          "VCI-PROOF-AUD",
          "invalid_proof",
          "the last proof with aud of another issuer",
          (key, nonce) =>
            v.proof(key, {
              aud: "https://other-issuer.idconform.test",
              ...(nonce !== undefined ? { nonce } : {}),
            }),
        ],
      ];
      if (await hasNonce(v))
        probes.push([
          "VCI-NONCE-INVALID",
          "invalid_nonce",
          "the last proof with a nonce the issuer never gave",
          (key) => v.proof(key, { nonce: stranger("idconform-never-issued") }),
        ]);
      else
        c.skipOnly(
          "VCI-NONCE-INVALID",
          "the issuer has no nonce endpoint, so it gives no c_nonce",
          "not-offered",
        );
      for (const [id, error, what, last] of probes) {
        const s = await session(v, { configuration: s0.id });
        const { reply: r } = await batchRequest(v, s, n, `a batch of ${n} proofs, ${what}`, last);
        c.check(
          id,
          isError(r.res, 400, error),
          refusal(r.res, `a batch of ${n} proofs, ${what}: 400 ${error}`, `a batch of ${n} proofs, ${what},`),
        );
      }
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.batch-limit",
    title: "a request with more proofs than batch_size is refused with a 400 error",
    requirements: ["VCI-BATCH-LIMIT"],
    async run(c) {
      const v = new Vci(c);
      const n = await batchSize(c, v, 1);
      // Baseline: batch_size proofs are accepted, so refusing one more is about the count.
      const s1 = await provingSession(c, v);
      const ok = await batchRequest(v, s1, n, `credential request with ${n} proofs (baseline)`);
      if (ok.reply.res.status !== 200)
        c.skip(
          `a request with batch_size (${n}) proofs answered ${said(ok.reply.res)}: see VCI-BATCH`,
          "dependency",
        );
      const s2 = await session(v, { configuration: s1.id });
      const { reply: r } = await batchRequest(
        v,
        s2,
        n + 1,
        `credential request with ${n + 1} proofs (batch_size + 1)`,
      );
      c.check(
        "VCI-BATCH-LIMIT",
        r.res.status === 400,
        refusal(
          r.res,
          `400 for ${n + 1} proofs, one more than batch_size ${n}`,
          `a request with ${n + 1} proofs, one more than batch_size,`,
        ),
      );
    },
  }),
];
