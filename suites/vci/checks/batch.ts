import { defineCheck } from "../../../src/engine/check.js";
import type { HolderKey } from "../../../mocks/wallet/keys.js";
import { jwkThumbprint } from "../../../mocks/wallet/thumbprint.js";
import type { VciProfile } from "../profile.js";
import { isObject, needsProof, said, Vci, type Ctx, type CredentialReply } from "../client.js";
import {
  baseline,
  credentialValues,
  readableFormat,
  readCredential,
  session,
  type Session,
} from "../session.js";

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
      `batch_credential_issuance.batch_size is ${JSON.stringify(n) ?? "absent"}, not an integer of 2 or more: see VCI-META-BATCH-SIZE`,
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

/**
 * A request with `n` proofs, each of its own fresh key; all proofs carry the one fresh c_nonce
 * of this request (as a Wallet fetching one nonce per request does).
 */
async function batchRequest(
  v: Vci,
  s: Session,
  n: number,
  label: string,
): Promise<{ reply: CredentialReply; keys: HolderKey[] }> {
  const keys: HolderKey[] = [];
  for (let i = 0; i < n; i++) keys.push(await v.keyFor(s.conf));
  const nonce = await v.nonce();
  const proofs: string[] = [];
  for (const key of keys) proofs.push(await v.proof(key, nonce !== undefined ? { nonce } : {}));
  const reply = await v.credential(
    s.token,
    { credential_configuration_id: s.id, proofs: { jwt: proofs } },
    { label },
  );
  return { reply, keys };
}

/** specs/000 Rules 1, Credential Request (proofs at most batch_size); public §8.3. */
export const batchChecks = [
  defineCheck<VciProfile>({
    id: "vci.batch",
    title:
      "a request with batch_size proofs of distinct keys gets that many credentials, each bound to its own proof's key, all different",
    requirements: ["VCI-BATCH", "VCI-BATCH-DISTINCT"],
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
      });
      if (r.decryptError !== undefined)
        c.skip(
          `the encrypted 200 response could not be read (${r.decryptError}): see VCI-ENC-RESPONSE`,
          "dependency",
        );
      if (!readableFormat(s.conf.format))
        c.skip(
          `configuration ${s.id} has format ${JSON.stringify(s.conf.format)}; the Wallet reads dc+sd-jwt and jwt_vc_json`,
          "other",
        );
      const values = credentialValues(r.body);
      const problems: string[] = [];
      if (values.length !== n) problems.push(`${values.length} credentials for ${n} proofs`);
      // Which proof key each credential is bound to; the order of the response is free.
      const wanted = new Map(keys.map((k, i) => [k.thumbprint, i]));
      const boundTo = new Map<string, number[]>();
      values.forEach((value, i) => {
        const { parsed } = readCredential(s.conf, value, `credentials[${i}]`);
        if (!parsed) return void problems.push(`credentials[${i}] cannot be read (see VCI-CRED-FORMAT)`);
        const t = parsed.cnfJwk ? jwkThumbprint(parsed.cnfJwk) : undefined;
        if (t === undefined) return void problems.push(`credentials[${i}] has no usable cnf.jwk`);
        if (!wanted.has(t))
          return void problems.push(
            `credentials[${i}] is bound to key ${t}, which no proof of this request holds`,
          );
        boundTo.set(t, [...(boundTo.get(t) ?? []), i]);
      });
      for (const [t, i] of wanted) {
        const got = boundTo.get(t) ?? [];
        if (got.length !== 1 && values.length === n)
          problems.push(
            `the key of proof ${i} binds ${got.length === 0 ? "no credential" : `credentials ${got.join(", ")}`}`,
          );
      }
      c.check("VCI-BATCH", problems.length === 0, {
        expected: `${n} credentials, each bound (cnf.jwk) to the key of a different one of the ${n} proofs`,
        actual: problems.join("; "),
        res: r.res,
      });
      if (values.length < 2) {
        c.skipOnly(
          "VCI-BATCH-DISTINCT",
          `the batch response carries ${values.length} credential(s): see VCI-BATCH`,
          "dependency",
        );
        return;
      }
      const seen = new Map<string, number>();
      const same: string[] = [];
      values.forEach((value, i) => {
        const text = typeof value === "string" ? value : JSON.stringify(value);
        const earlier = seen.get(text);
        if (earlier !== undefined) same.push(`credentials[${i}] repeats credentials[${earlier}]`);
        else seen.set(text, i);
      });
      c.check("VCI-BATCH-DISTINCT", same.length === 0, {
        expected: "the credentials of one batch differ from each other",
        actual: same.join("; "),
        res: r.res,
      });
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
      c.check("VCI-BATCH-LIMIT", r.res.status === 400, {
        expected: `400 for ${n + 1} proofs, one more than batch_size ${n}`,
        actual: said(r.res),
        res: r.res,
      });
    },
  }),
];
