import type { CheckContext } from "../../src/engine/check.js";
import { SetupError } from "../../src/engine/errors.js";
import { quote } from "../../src/engine/quote.js";
import { firstKind, type FindingKind, type KindedProblem } from "../../src/engine/finding-kind.js";
import type { HttpResponse } from "../../src/http/client.js";
import { MockClient } from "../../src/http/mock-control.js";
import {
  AS_WELL_KNOWN,
  IDENTIFIER_SETS,
  PRE_AUTHORIZED_GRANT,
  wellKnownUrl,
  type VciIdentifiers,
} from "../../src/protocols/vci.js";
import {
  decryptResponse,
  encryptionKey,
  encryptionRequest,
  type EncryptionKey,
} from "../../mocks/wallet/encryption.js";
import { recordedUrl } from "../../mocks/wallet/index.js";
import { holderKey, type HolderAlg, type HolderKey } from "../../mocks/wallet/keys.js";
import {
  parseOfferInvocation,
  readOffer,
  type OfferInvocation,
  type OfferShape,
} from "../../mocks/wallet/offer.js";
import { jwtProof, type ProofOptions } from "../../mocks/wallet/proof.js";
import type { VciProfile } from "./profile.js";
import { TAG } from "./observers.js";

export type Ctx = CheckContext<VciProfile>;
export type Json = Record<string, unknown>;

/** What the suite's setup hands to the checks (suite.ts). */
export interface VciProvided {
  readonly walletUrl: string;
  /** Where the vendor's system reaches the wallet's Credential Offer Endpoint (per-check slots below it). */
  readonly walletPublicUrl: string;
  readonly controlToken: string;
}

export type OfferKind = "preAuthorized" | "txCode" | "byValue" | "deferred" | "authorizationCode";

/** One offer as the Wallet received it: the invocation, the offer object, and its evidence. */
export interface ReceivedOffer {
  readonly kind: OfferKind;
  readonly invocation: OfferInvocation | undefined;
  /** The offer object (fetched when by reference). */
  readonly offer: unknown;
  readonly shape: OfferShape;
  /** The GET of credential_offer_uri, when by reference. */
  readonly fetched: HttpResponse | undefined;
  readonly txCode: string | undefined;
}

/** How a URL stands against a rule that it be https: https, plain http, or anything else (not a URL too). */
export function schemeOf(url: unknown): "https" | "plain-http" | "other" {
  if (typeof url !== "string") return "other";
  try {
    const p = new URL(url).protocol;
    return p === "https:" ? "https" : p === "http:" ? "plain-http" : "other";
  } catch {
    return "other";
  }
}

/** Why a rule that a URL be https was not judged. */
export const PLAIN_HTTP_ALLOWED = "not exercised: plain http allowed by options.allowInsecureHttp";

/**
 * Judges `requirement`, a rule that each URL of `urls` (named by `[what, url]`) be https (TLS
 * is mandatory, Authentication 5). Any URL neither https nor allowed plain http violates it.
 * In a run with options.allowInsecureHttp a plain http URL is not judged: when nothing else
 * violates the rule it is a `not-exercised` skip naming those URLs (the run is then not
 * certifiable), never a pass. Without the option plain http violates it like any other scheme.
 * True when the rule was met.
 */
export function judgeHttps(
  c: Ctx,
  requirement: string,
  urls: readonly (readonly [string, unknown])[],
  expected: string,
  prefix = "",
): boolean {
  const allowed = c.http.allowsPlainHttp;
  const shown = (u: readonly [string, unknown]): string => `${u[0]} ${quote(u[1] ?? null, 200)}`;
  const bad = urls.filter(([, u]) => {
    const s = schemeOf(u);
    return s === "other" || (s === "plain-http" && !allowed);
  });
  if (bad.length > 0)
    return c.check(requirement, false, { expected, actual: prefix + bad.map(shown).join("; ") });
  const plain = urls.filter(([, u]) => schemeOf(u) === "plain-http");
  if (plain.length > 0) {
    // Not a pass, also when other URLs of the check are https: this one was not judged.
    c.partly(requirement, `${PLAIN_HTTP_ALLOWED} (${prefix}${plain.map(shown).join("; ")})`, "not-exercised");
    return false;
  }
  return c.check(requirement, true, { expected, actual: `${prefix}all https` });
}

/** A JSON object body, or {} for anything else. */
export function body(res: HttpResponse | undefined): Json {
  const j = res?.json;
  return j !== null && typeof j === "object" && !Array.isArray(j) ? (j as Json) : {};
}

/** A short account of a response for findings: status, error code, or the start of the body. */
export function said(res: HttpResponse): string {
  if (isJwtType(res)) return `${res.status} (an application/jwt body of ${res.text.length} characters)`;
  const b = body(res);
  if (typeof b.error === "string") return `${res.status} ${b.error}`;
  return `${res.status}${res.text ? ` ${res.text.slice(0, 160)}` : ""}`;
}

/**
 * The value at `path` in a hook's answer (profile: offers.trigger.offerMember, txCodeMember):
 * a member of that exact name, else a dotted path through nested objects (`data.offer.uri`),
 * so a product's own offer-creation endpoint can be the hook whatever its answer's shape.
 */
export function memberAt(answer: Json, path: string): unknown {
  if (Object.hasOwn(answer, path)) return answer[path];
  let at: unknown = answer;
  for (const key of path.split(".")) {
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** True when the response is `status` with JSON `error` equal to `error`. */
export function isError(res: HttpResponse, status: number, error: string): boolean {
  return res.status === status && body(res).error === error;
}

export const noStore = (res: HttpResponse): boolean =>
  /(^|,)\s*no-store\s*(,|$)/i.test(res.header("cache-control") ?? "");
export const isJsonType = (res: HttpResponse): boolean =>
  /^application\/json\s*(;|$)/i.test(res.header("content-type") ?? "");
export const isJwtType = (res: HttpResponse): boolean =>
  /^application\/jwt\s*(;|$)/i.test(res.header("content-type") ?? "");

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** One problem found, with the kind of violation it is (src/engine/finding-kind.ts). */
export type Problem = KindedProblem;

/** A problem of `kind` described by `text`. */
export const problem = (kind: FindingKind, text: string): Problem => ({ kind, text });

/**
 * Decides `requirement` on a list of problems found: met when there is none, else each named.
 * The finding's kind is the first (`firstKind`) of the problems that carry one; read from the
 * texts (`inferKind`) when none does.
 */
export function noProblems(
  c: Ctx,
  requirement: string,
  problems: readonly (string | Problem)[],
  expected: string,
  res?: HttpResponse,
): void {
  const kind = firstKind(problems.flatMap((p) => (typeof p === "string" ? [] : [p.kind])));
  c.check(requirement, problems.length === 0, {
    expected,
    actual: problems.map((p) => (typeof p === "string" ? p : p.text)).join("; ") || "as expected",
    ...(res ? { res } : {}),
    ...(kind !== undefined ? { kind } : {}),
  });
}

/**
 * The kind of a violated rule that `res` be a refusal with `status` (and an error code): a 2xx
 * is an acceptance, another status `wrong-status`, the right status `wrong-code` (its error code
 * is another one, or none: the error format is the observers' to judge).
 */
export function refusalKind(res: HttpResponse, status = 400): FindingKind {
  if (res.status >= 200 && res.status < 300) return "accepted";
  return res.status === status ? "wrong-code" : "wrong-status";
}

/**
 * The kind of a violated rule that `res` be a 401 with a Bearer challenge (RFC 6750 §3): a 2xx
 * is an acceptance, another status `wrong-status`, no WWW-Authenticate `missing`, a challenge
 * that is not the one asked for `wrong-value`.
 */
export function challengeKind(res: HttpResponse): FindingKind {
  if (res.status >= 200 && res.status < 300) return "accepted";
  if (res.status !== 401) return "wrong-status";
  return (res.header("www-authenticate") ?? "").trim() === "" ? "missing" : "wrong-value";
}

/**
 * The kind of a violated rule that a credential answer be 200 with a non-empty `credentials`
 * array: another status, a body that could not be decrypted or is not an array, or no
 * `credentials` at all.
 */
export function credentialsKind(reply: {
  readonly res: HttpResponse;
  readonly body: Json;
  readonly decryptError?: string | undefined;
}): FindingKind {
  const creds = reply.body.credentials;
  if (reply.res.status !== 200) return "wrong-status";
  if (reply.decryptError !== undefined) return "malformed";
  if (creds === undefined) return "missing";
  return Array.isArray(creds) ? "wrong-value" : "malformed";
}

/** A credential response read by the Wallet: decrypted when it came encrypted. */
export interface CredentialReply {
  readonly res: HttpResponse;
  /** The JSON body, decrypted when the response was a JWE; {} when unreadable. */
  readonly body: Json;
  readonly encrypted: boolean;
  /** Why an application/jwt response could not be decrypted or read. */
  readonly decryptError: string | undefined;
}

/**
 * The Wallet's side of one check: discovery (issuer and AS metadata), fresh offers from the
 * profile's source, token, nonce and credential requests. It decides no requirement itself:
 * where what it needs is missing it skips the check and names the requirement that shows why.
 */
export class Vci {
  readonly ids: VciIdentifiers;
  readonly issuer: string;
  private meta: Json | undefined;
  private as: Json | undefined;
  private encKey: EncryptionKey | undefined;

  constructor(readonly c: Ctx) {
    this.ids = IDENTIFIER_SETS[c.profile.identifiers];
    this.issuer = c.profile.baseUrl;
  }

  get provided(): VciProvided {
    return this.c.provided as unknown as VciProvided;
  }

  metadataUrl(): string {
    return wellKnownUrl(this.issuer, this.ids.wellKnown);
  }

  /** The issuer metadata, usable only when served and naming this issuer exactly. */
  async metadata(): Promise<Json> {
    if (this.meta) return this.meta;
    const res = await this.c.http.get(this.metadataUrl(), {
      headers: { accept: "application/json" },
      label: "issuer metadata",
    });
    if (res.status !== 200 || !isObject(res.json))
      this.c.skip(`the issuer metadata answered ${said(res)}: see VCI-META-WELL-KNOWN`, "dependency");
    const m = res.json as Json;
    if (m.credential_issuer !== this.issuer)
      this.c.skip(
        `the metadata names credential_issuer ${quote(m.credential_issuer)}, so it MUST NOT be used: see VCI-META-ISSUER-MATCH`,
        "dependency",
      );
    this.meta = m;
    return m;
  }

  /** The configuration object of `id`, or a skip. */
  async configuration(id: string): Promise<Json> {
    const all = (await this.metadata()).credential_configurations_supported;
    const conf = isObject(all) ? all[id] : undefined;
    if (!isObject(conf))
      this.c.skip(`configuration ${id} is not in the metadata: see VCI-OFFER-CONFIG-KNOWN`, "dependency");
    return conf;
  }

  /** An endpoint URL from the metadata; skips when absent (not offered) or not usable over TLS. */
  async endpoint(member: string): Promise<string> {
    const v = (await this.metadata())[member];
    if (v === undefined) this.c.skip(`the issuer offers no ${member}`, "not-offered");
    if (!this.usable(v))
      this.c.skip(
        `${member} ${quote(v)} is not an https URL, so the Wallet does not call it: see VCI-META-HTTPS`,
        "dependency",
      );
    return v;
  }

  /** The Authorization Server's metadata (RFC 8414): the issuer's own, or the first of authorization_servers. */
  async authorizationServer(): Promise<Json> {
    if (this.as) return this.as;
    const m = await this.metadata();
    const list = m.authorization_servers;
    const asId = Array.isArray(list) ? list[0] : this.issuer;
    if (typeof asId !== "string" || !this.usable(asId))
      this.c.skip(
        `authorization_servers names ${quote(asId ?? null, 120)}, not an https URL: see VCI-META-AUTH-SERVERS`,
        "dependency",
      );
    const res = await this.c.http.get(wellKnownUrl(asId, AS_WELL_KNOWN), {
      label: "authorization server metadata",
    });
    if (res.status !== 200 || !isObject(res.json) || !this.usable(res.json.token_endpoint))
      this.c.skip(
        `the Authorization Server metadata answered ${said(res)}, without an https token_endpoint: see VCI-AS-DISCOVERY`,
        "dependency",
      );
    if (res.json.issuer !== asId)
      this.c.skip(
        `the Authorization Server metadata names issuer ${quote(res.json.issuer ?? null, 120)}: see VCI-AS-DISCOVERY`,
        "dependency",
      );
    this.as = res.json;
    return res.json;
  }

  /**
   * True for a URL the Wallet may call: https (TLS is mandatory, Authentication 5), or plain
   * http in a run with options.allowInsecureHttp (which is then not certifiable).
   */
  usable(url: unknown): url is string {
    const s = schemeOf(url);
    return s === "https" || (s === "plain-http" && this.c.http.allowsPlainHttp);
  }

  async tokenEndpoint(): Promise<string> {
    return (await this.authorizationServer()).token_endpoint as string;
  }

  /**
   * A fresh offer of `kind` as the source gives it: an invocation URL or an offer object, and
   * the tx_code; skips when the profile cannot give one.
   */
  async rawOffer(
    kind: OfferKind,
    opts: { usesFixed?: boolean } = {},
  ): Promise<{ raw: unknown; txCode: string | undefined }> {
    const src = this.c.profile.offers;
    if (src.fixed) {
      if (!opts.usesFixed || kind !== "preAuthorized")
        this.c.skip(
          "the profile gives one fixed offer (offers.fixed), used by the issuance check; this check needs a fresh one",
          "needs-hook",
        );
      const text = src.fixed.offer.trim();
      return { raw: text.startsWith("{") ? (JSON.parse(text) as unknown) : text, txCode: src.fixed.txCode };
    }
    const t = src.trigger!;
    const template = t.kinds[kind];
    if (template === undefined)
      this.c.skip(`the profile declares no ${kind} offer (offers.trigger.kinds.${kind})`, "needs-hook");
    const slot = `${this.c.runId.slice(-6)}-${Math.random().toString(36).slice(2, 10)}`;
    const endpoint = `${this.provided.walletPublicUrl}/offer/${slot}`;
    const json = JSON.parse(
      JSON.stringify(template).replaceAll("{walletOfferEndpoint}", endpoint),
    ) as unknown;
    // The hook is the vendor's test setup, not a message of the document: whatever is wrong
    // with its answer is a setup error naming the profile path, never a finding about the
    // issuer and never a harness fault. The first one found stops every later offer of the run.
    const P = "suites.vci.offers.trigger";
    const answer = await this.c.setup(P, async () => {
      // A hook that cannot be reached stays a transport error: the target may be down as a whole.
      const res = await this.c.http.post(t.url, { json, headers: t.headers, label: `offer hook (${kind})` });
      if (isObject(res.json)) this.protectHookAnswer(res.json);
      if (res.status < 200 || res.status > 299)
        throw new SetupError(
          `${P}.url`,
          `the offer hook answered ${said(res)} (kind ${kind}); expected 2xx with a JSON object`,
        );
      if (!isObject(res.json))
        throw new SetupError(
          `${P}.url`,
          `the offer hook answered ${res.status} ${res.header("content-type") ?? "(no Content-Type)"} with ${res.jsonError ?? `JSON ${quote(res.json, 80)}`} (kind ${kind}); expected a JSON object`,
        );
      if (t.delivery !== "wallet") {
        const raw = memberAt(res.json, t.offerMember);
        if (typeof raw !== "string" && !isObject(raw))
          throw new SetupError(
            `${P}.offerMember`,
            raw === undefined
              ? `the hook answered members ${Object.keys(res.json).slice(0, 20).join(", ") || "(none)"}; none is ${quote(t.offerMember, 80)} (the path to an invocation URL or an offer object)`
              : `the hook's member ${quote(t.offerMember, 80)} is ${quote(raw, 80)}, not an invocation URL or an offer object`,
          );
      }
      return res.json;
    });
    const tx = memberAt(answer, t.txCodeMember);
    const txCode = typeof tx === "string" ? tx : undefined;
    if (t.delivery !== "wallet") return { raw: memberAt(answer, t.offerMember), txCode };
    const entry = await this.c.setup(`${P}.delivery`, async () => {
      const got = await new MockClient(this.provided.walletUrl, this.provided.controlToken).wait(
        `/offer/${slot}`,
        1,
        src.deliveryTimeoutMs,
      );
      if (!got[0])
        throw new SetupError(
          `${P}.kinds.${kind}`,
          `no offer reached the wallet's Credential Offer Endpoint (${endpoint}) within ${src.deliveryTimeoutMs} ms (suites.vci.offers.deliveryTimeoutMs); with offers.trigger.delivery: wallet, the hook body must tell your system where to send it ("{walletOfferEndpoint}")`,
        );
      return got[0];
    });
    const got1 = new URL(recordedUrl(entry), this.provided.walletUrl);
    return { raw: `${endpoint}${got1.search}`, txCode };
  }

  /**
   * Registers the live values a hook's answer may carry (its tx_code, and the pre-authorized
   * code of an offer given by value) before any of it can reach a message.
   */
  private protectHookAnswer(answer: Json): void {
    const t = this.c.profile.offers.trigger!;
    const tx = memberAt(answer, t.txCodeMember);
    if (typeof tx === "string") this.c.secret(tx, "TX_CODE");
    const offer = memberAt(answer, t.offerMember);
    if (isObject(offer)) this.protect(offer);
    else if (typeof offer === "string") {
      const inv = parseOfferInvocation(offer, this.ids);
      if (isObject(inv.offer)) this.protect(inv.offer);
    }
  }

  /** A fresh offer of `kind`, fetched when by reference; skips when it cannot be used. */
  async offer(kind: OfferKind, opts: { usesFixed?: boolean } = {}): Promise<ReceivedOffer> {
    const { raw, txCode } = await this.rawOffer(kind, opts);
    let invocation: OfferInvocation | undefined;
    let offer: unknown = raw;
    let fetched: HttpResponse | undefined;
    if (typeof raw === "string") {
      invocation = parseOfferInvocation(raw, this.ids);
      offer = invocation.offer;
      if (invocation.uri !== undefined) {
        // TLS is mandatory (Authentication 5); a plain-http issuer (allowInsecureHttp) is the one exception.
        if (!this.usable(invocation.uri))
          this.c.skip(
            "credential_offer_uri is not an https URL, so the Wallet does not fetch it: see VCI-OFFER-URI-HTTPS",
            "dependency",
          );
        fetched = await this.c.http.get(invocation.uri, { label: "offer by reference" });
        offer = fetched.json;
        if (fetched.status !== 200 || !isObject(offer))
          this.c.skip(`credential_offer_uri answered ${said(fetched)}: see VCI-OFFER-URI-JSON`, "dependency");
      }
    }
    if (!isObject(offer)) this.c.skip(`the offer is not a JSON object: see VCI-OFFER-MEMBERS`, "dependency");
    const shape = this.protect(offer);
    return { kind, invocation, offer, shape, fetched, txCode };
  }

  /**
   * Reads an offer and registers its pre-authorized code as a secret, also in the
   * percent-encoded form an invocation URL carries it in, so no output shows a live code.
   */
  protect(offer: unknown): OfferShape {
    const shape = readOffer(offer);
    const code = shape.preAuthorizedCode;
    if (code) {
      this.c.secret(code, "PRE_AUTHORIZED_CODE");
      this.c.secret(encodeURIComponent(code), "PRE_AUTHORIZED_CODE");
      this.c.secret(encodeURIComponent(encodeURIComponent(code)), "PRE_AUTHORIZED_CODE");
    }
    return shape;
  }

  /** A Token Request at the AS's token endpoint (form fields as given). */
  async token(form: Record<string, string>, label = "token request"): Promise<HttpResponse> {
    return this.c.http.post(await this.tokenEndpoint(), { form, label, tags: [TAG.token] });
  }

  /** The pre-authorized Token Request of an offer, with its tx_code when it needs one. */
  preAuthorizedForm(o: ReceivedOffer, extra: Record<string, string> = {}): Record<string, string> {
    if (!o.shape.preAuthorizedCode)
      this.c.skip("the offer has no pre-authorized_code grant: see VCI-OFFER-PRE-AUTH-CODE", "dependency");
    return {
      grant_type: PRE_AUTHORIZED_GRANT,
      "pre-authorized_code": o.shape.preAuthorizedCode,
      client_id: this.c.profile.clientId,
      ...(o.shape.txCodeRequired && o.txCode !== undefined ? { tx_code: o.txCode } : {}),
      ...extra,
    };
  }

  /** Redeems an offer; skips (naming VCI-TOKEN-PRE-AUTH) when no access token comes back. */
  async accessToken(
    o: ReceivedOffer,
    extra: Record<string, string> = {},
  ): Promise<{ token: string; res: HttpResponse }> {
    if (o.shape.txCodeRequired && o.txCode === undefined)
      this.c.skip("the offer needs a tx_code the profile's source did not give", "needs-hook");
    const res = await this.token(this.preAuthorizedForm(o, extra));
    const b = body(res);
    if (res.status !== 200 || typeof b.access_token !== "string")
      this.c.skip(`the token request answered ${said(res)}: see VCI-TOKEN-PRE-AUTH`, "dependency");
    return { token: b.access_token, res };
  }

  /** A fresh c_nonce, or undefined when the issuer has no nonce endpoint. */
  async nonce(): Promise<string | undefined> {
    const m = await this.metadata();
    if (m.nonce_endpoint === undefined) return undefined;
    const url = await this.endpoint("nonce_endpoint");
    const res = await this.c.http.post(url, { body: "", label: "nonce", tags: [TAG.nonce] });
    const n = body(res).c_nonce;
    if (res.status < 200 || res.status > 299 || typeof n !== "string")
      this.c.skip(`the nonce endpoint answered ${said(res)}: see VCI-NONCE-RESPONSE`, "dependency");
    return n;
  }

  /** A holder key of an algorithm the configuration's jwt proof type accepts. */
  async keyFor(conf: Json, prefer: HolderAlg = "ES256"): Promise<HolderKey> {
    // The Wallet makes jwt proofs with a jwk header and no key attestation; a configuration
    // that asks for anything else is not exercised (and says so), never failed.
    const pt = conf.proof_types_supported;
    if (isObject(pt) && !isObject(pt.jwt))
      this.c.skip(
        `the configuration takes ${Object.keys(pt).join(", ")} proofs; the Wallet makes jwt proofs only`,
        "other",
      );
    const binding = conf.cryptographic_binding_methods_supported;
    if (Array.isArray(binding) && !binding.includes("jwk"))
      this.c.skip(`the configuration binds keys by ${quote(binding)}; the Wallet binds by jwk only`, "other");
    const jwt = isObject(pt) ? pt.jwt : undefined;
    if (isObject(jwt) && jwt.key_attestations_required !== undefined)
      this.c.skip("the configuration requires key attestations, which the Wallet does not make", "other");
    const algs = proofAlgs(conf);
    const alg = algs.includes(prefer)
      ? prefer
      : (algs.find((a): a is HolderAlg => a === "ES256" || a === "EdDSA") ?? undefined);
    if (algs.length > 0 && alg === undefined)
      this.c.skip(`the jwt proof type accepts ${algs.join(", ")}; the Wallet signs ES256 or EdDSA`, "other");
    return holderKey(alg ?? prefer);
  }

  /**
   * The authorization_details of a Token or Authorization Request for configuration `id`
   * (Rules 11); with authorization_servers in the metadata, `locations` names the issuer
   * (public §6.2).
   */
  async authorizationDetails(id: string): Promise<string> {
    const meta = await this.metadata();
    return JSON.stringify([
      {
        type: this.ids.authorizationDetailsType,
        credential_configuration_id: id,
        ...(Array.isArray(meta.authorization_servers) ? { locations: [this.issuer] } : {}),
      },
    ]);
  }

  /**
   * The credential_identifiers a Token Response gave (specs/000 Token Response additions), for
   * configuration `id`, or for any when `id` is undefined; bounded against a hostile answer.
   */
  identifiers(tokenRes: HttpResponse | undefined, id?: string): string[] {
    const ad = body(tokenRes).authorization_details;
    if (!Array.isArray(ad)) return [];
    const out: string[] = [];
    for (const d of ad.slice(0, 100)) {
      if (!isObject(d) || d.type !== this.ids.authorizationDetailsType) continue;
      if (id !== undefined && d.credential_configuration_id !== id) continue;
      if (!Array.isArray(d.credential_identifiers)) continue;
      for (const x of d.credential_identifiers.slice(0, 100))
        if (typeof x === "string" && x !== "") out.push(x);
    }
    return out;
  }

  /**
   * How a Credential Request names what it asks for (Resources: Credential Request): by a
   * credential_identifier when the Token Response gave identifiers for configuration `id`
   * (then credential_configuration_id MUST NOT be used), else by credential_configuration_id.
   */
  target(tokenRes: HttpResponse | undefined, id: string): Json {
    const first = this.identifiers(tokenRes, id)[0];
    return first !== undefined ? { credential_identifier: first } : { credential_configuration_id: id };
  }

  /** A jwt proof for this issuer with a fresh nonce (when it has a nonce endpoint). */
  async proof(key: HolderKey, opts: Partial<ProofOptions> = {}): Promise<string> {
    const nonce = "nonce" in opts ? opts.nonce : await this.nonce();
    return jwtProof({
      key,
      ids: this.ids,
      aud: this.issuer,
      iss: this.c.profile.clientId,
      ...opts,
      ...(nonce !== undefined ? { nonce } : {}),
    });
  }

  /** credential_response_encryption for a request, when the issuer supports it (always, if it requires it). */
  async encryption(): Promise<{ jwk: unknown; enc: string } | undefined> {
    const e = (await this.metadata()).credential_response_encryption;
    if (!isObject(e)) return undefined;
    const algs = Array.isArray(e.alg_values_supported) ? e.alg_values_supported : [];
    const encs = Array.isArray(e.enc_values_supported) ? e.enc_values_supported : [];
    const enc = ["A128GCM", "A256GCM"].find((x) => encs.includes(x));
    if (!algs.includes("ECDH-ES") || enc === undefined) {
      if (e.encryption_required === true)
        this.c.skip(
          "the issuer requires response encryption with algorithms the Wallet lacks (it offers ECDH-ES with A128GCM or A256GCM)",
          "other",
        );
      return undefined;
    }
    this.encKey ??= await encryptionKey();
    return encryptionRequest(this.encKey, enc);
  }

  /** POSTs a Credential Request (adding response encryption when the issuer supports it) and reads the reply. */
  async credential(
    token: string | undefined,
    request: Json,
    opts: { encrypt?: boolean; label?: string; url?: string; authorization?: string } = {},
  ): Promise<CredentialReply> {
    const url = opts.url ?? (await this.endpoint("credential_endpoint"));
    const enc = opts.encrypt === false ? undefined : await this.encryption();
    const json =
      enc && !("credential_response_encryption" in request)
        ? { ...request, credential_response_encryption: enc }
        : request;
    const res = await this.c.http.post(url, {
      json,
      // `authorization` gives the whole header value (`token` is then only for the caller's reading).
      headers:
        opts.authorization !== undefined
          ? { authorization: opts.authorization }
          : token !== undefined
            ? { authorization: `Bearer ${token}` }
            : {},
      label: opts.label ?? "credential request",
      ...(opts.url === undefined ? { tags: [TAG.credential] } : {}),
    });
    return this.read(res);
  }

  /** Reads a credential or deferred response: JSON, or a JWE decrypted with the Wallet's key. */
  async read(res: HttpResponse): Promise<CredentialReply> {
    if (!isJwtType(res)) return { res, body: body(res), encrypted: false, decryptError: undefined };
    if (!this.encKey)
      return {
        res,
        body: {},
        encrypted: true,
        decryptError: "an encrypted response to a request that asked for none",
      };
    try {
      const { payload } = await decryptResponse(res.text.trim(), this.encKey);
      return {
        res,
        body: isObject(payload) ? payload : {},
        encrypted: true,
        decryptError: isObject(payload) ? undefined : "the decrypted payload is not a JSON object",
      };
    } catch (e) {
      return { res, body: {}, encrypted: true, decryptError: (e as Error).message };
    }
  }

  /** The configuration ids an offer names that the metadata also has. */
  async usableConfigurations(o: ReceivedOffer): Promise<string[]> {
    const all = (await this.metadata()).credential_configurations_supported;
    const ids = o.shape.configurationIds.filter((id) => isObject(all) && isObject(all[id]));
    if (ids.length === 0)
      this.c.skip(
        "the offer names no configuration the metadata has: see VCI-OFFER-CONFIG-KNOWN",
        "dependency",
      );
    return ids;
  }
}

/** proof_signing_alg_values_supported of a configuration's jwt proof type ([] when it has none). */
export function proofAlgs(conf: Json): string[] {
  const pt = conf.proof_types_supported;
  const jwt = isObject(pt) ? pt.jwt : undefined;
  const algs = isObject(jwt) ? jwt.proof_signing_alg_values_supported : undefined;
  return Array.isArray(algs) ? algs.filter((a): a is string => typeof a === "string") : [];
}

/** True when the configuration binds credentials to a key (so a proof is needed). */
export function needsProof(conf: Json): boolean {
  return (
    conf.proof_types_supported !== undefined || conf.cryptographic_binding_methods_supported !== undefined
  );
}

export { isObject };
