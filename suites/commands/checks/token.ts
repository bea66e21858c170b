import { exportJWK, type JWK } from "jose";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import {
  attackerKey,
  startJkuHost,
  tokenAttacks,
  type TokenAttackId,
} from "../../../src/engine/token-attacks.js";
import type { FindingKind } from "../../../src/engine/finding-kind.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { CommandsProfile } from "../profile.js";
import { CommandClient, refusal, said, type SendOptions } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

/**
 * A key the OP does not publish, of the OP key's own algorithm (and curve or size), as a
 * private JWK with a kid of its own: an RP that pins its OP's algorithm must still look at
 * the issuer (an ES256 stranger against an RS256 OP is refused for its alg alone).
 */
async function strangerKey(like: JWK, kid: string): Promise<JWK> {
  const alg = like.alg ?? "ES256";
  const { privateKey } = await attackerKey(alg, like);
  return { ...(await exportJWK(privateKey)), alg, kid };
}

/**
 * The signature family of the shared token attacks and the requirement each one decides:
 * every forgery a verifier might trust (a key the token brings, algorithm confusion), not
 * only a flipped byte. Each is made from a fresh valid token, so no jti is shared.
 */
const FORGERIES: readonly [TokenAttackId, string][] = [
  ["alg-none", "CMD-TOKEN-ALG-NONE"],
  ["flipped-signature", "CMD-TOKEN-SIGNATURE"],
  ["stranger-key", "CMD-TOKEN-SIGNATURE"],
  ["embedded-jwk", "CMD-TOKEN-SIGNATURE"],
  ["embedded-x5c", "CMD-TOKEN-SIGNATURE"],
  ["jku", "CMD-TOKEN-SIGNATURE"],
  ["hs256-public-key", "CMD-TOKEN-SIGNATURE"],
  ["unknown-kid", "CMD-TOKEN-KID"],
];

/** Before any negative: the same command, valid, must succeed, or the refusals prove nothing. */
async function baseline(c: Ctx, k: CommandClient): Promise<void> {
  const res = await k.metadata(k.tenantFor("tokens"), undefined, {}, { label: "valid metadata (baseline)" });
  if (res.status !== 200)
    c.skip(`a valid metadata command answered ${said(res)}: see CMD-METADATA-SUPPORTED`, "dependency");
}

/** Sends a defective metadata command and decides `id`: 400 invalid_request. */
async function refused(
  c: Ctx,
  k: CommandClient,
  id: string,
  what: string,
  o: SendOptions,
  command = "metadata",
): Promise<HttpResponse> {
  // Metadata negatives go to a tenant of their own, so the run's tenant keeps its metadata.
  const claims = command === "metadata" ? { metadata: {}, ...o.claims } : o.claims;
  const tenant = o.tenant ?? (command === "metadata" ? k.tenantFor("tokens") : undefined);
  const { res } = await k.send(command, {
    ...o,
    ...(claims ? { claims } : {}),
    ...(tenant ? { tenant } : {}),
    label: what,
    tags: ["attack"],
  });
  const r = refusal(what, res, [400, "invalid_request"]);
  c.check(id, r.ok, r.details);
  return res;
}

/** A replay that was not refused: acted on again (2xx), or answered otherwise (a redirect, a 5xx). */
const replayKind = (res: HttpResponse): FindingKind =>
  res.status >= 200 && res.status < 300 ? "accepted" : "wrong-status";

/** specs/002 area A Command Token, Authentication and Errors: invalid tokens are refused. */
export const tokenChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.token-header",
    title:
      "command tokens with a wrong typ, alg none, a forged signature (flipped, a stranger key, a key the token carries in jwk, x5c or jku, HS256 keyed with the public key) or an unknown kid answer 400 invalid_request",
    requirements: ["CMD-TOKEN-TYP", "CMD-TOKEN-ALG-NONE", "CMD-TOKEN-SIGNATURE", "CMD-TOKEN-KID"],
    async run(c) {
      const k = new CommandClient(c);
      await baseline(c, k);
      await refused(c, k, "CMD-TOKEN-TYP", "typ JWT", { header: { typ: "JWT" } });
      await refused(c, k, "CMD-TOKEN-TYP", "no typ", { header: { typ: undefined } });
      const own = k.signingKey;
      const jku = await startJkuHost();
      try {
        for (const [attack, id] of FORGERIES) {
          const tenant = k.tenantFor("tokens");
          const valid = await k.sign(k.claims("metadata", { tenant, claims: { metadata: {} } }));
          const [forged] = await tokenAttacks({ token: valid, signingKey: own, jku, only: [attack] });
          // embedded-x5c has no certificate for an EdDSA key.
          if (forged === undefined) continue;
          await refused(c, k, id, forged.title, { token: forged.token, tenant });
        }
      } finally {
        await jku.close();
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.token-claims",
    title:
      "expired tokens, another aud or client_id, a nonce, or a missing required claim answer 400 invalid_request",
    requirements: [
      "CMD-TOKEN-EXPIRED",
      "CMD-TOKEN-AUD",
      "CMD-TOKEN-CLIENT-ID",
      "CMD-TOKEN-NONCE",
      "CMD-TOKEN-REQUIRED-CLAIMS",
      "CMD-METADATA-CLAIM-REQUIRED",
    ],
    async run(c) {
      const k = new CommandClient(c);
      await baseline(c, k);
      const now = Math.floor(Date.now() / 1000);
      await refused(c, k, "CMD-TOKEN-EXPIRED", "expired 10 minutes ago", {
        claims: { iat: now - 900, exp: now - 600 },
      });
      await refused(c, k, "CMD-TOKEN-AUD", "aud of another endpoint", {
        claims: { aud: `${c.profile.baseUrl.replace(/\/$/, "")}/other` },
      });
      await refused(c, k, "CMD-TOKEN-CLIENT-ID", "client_id of another RP", {
        claims: { client_id: `${c.profile.clientId}-other` },
      });
      await refused(c, k, "CMD-TOKEN-NONCE", "a nonce claim", { claims: { nonce: "n-0S6_WzA2Mj" } });
      for (const claim of ["aud", "client_id", "iat", "exp", "jti", "command", "tenant"]) {
        await refused(c, k, "CMD-TOKEN-REQUIRED-CLAIMS", `no ${claim}`, { claims: { [claim]: undefined } });
      }
      // A required claim that is present but not of its type (Command Token claim table) is
      // no more there than a missing one.
      const mistyped: Record<string, unknown>[] = [
        { jti: 42 },
        { jti: "" },
        { client_id: 7 },
        { tenant: ["a"] },
        { iat: String(now) },
        { exp: String(now + 60) },
        { exp: null },
      ];
      for (const claims of mistyped) {
        await refused(c, k, "CMD-TOKEN-REQUIRED-CLAIMS", `${JSON.stringify(claims)} (not of its type)`, {
          claims,
        });
      }
      await refused(c, k, "CMD-METADATA-CLAIM-REQUIRED", "metadata without the metadata claim", {
        claims: { metadata: undefined },
      });
      // The metadata claim is an object (OP Metadata object): any other JSON value is not it.
      for (const metadata of [null, "metadata", ["notification_endpoint"], 1]) {
        await refused(
          c,
          k,
          "CMD-METADATA-CLAIM-REQUIRED",
          `a metadata claim of ${JSON.stringify(metadata)}`,
          {
            claims: { metadata },
          },
        );
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.token-command-claims",
    title:
      "sub in a tenant command, metadata in an account command, authentication_provider outside migrate answer 400 invalid_request",
    requirements: [
      "CMD-TOKEN-TENANT-SUB",
      "CMD-TOKEN-ACCOUNT-METADATA",
      "CMD-TOKEN-AUTH-PROVIDER",
      "CMD-TOKEN-ACCOUNT-SUB",
      "CMD-METADATA-SYNC-ONLY",
    ],
    async run(c) {
      const k = new CommandClient(c);
      await baseline(c, k);
      const sub = k.sub("claims");
      await refused(c, k, "CMD-TOKEN-TENANT-SUB", "metadata with sub", { sub });
      // authentication_provider is PROHIBITED outside Migrate: a tenant command is no exception.
      await refused(c, k, "CMD-TOKEN-AUTH-PROVIDER", "metadata with authentication_provider", {
        claims: { authentication_provider: "op" },
      });
      const asyncMeta = (
        await k.send("metadata_async", {
          tenant: k.tenantFor("tokens"),
          claims: { metadata: {} },
          label: "metadata_async",
          // A command the RP must refuse: its answer is judged here, not as an account command's.
          tags: ["attack"],
        })
      ).res;
      const sync = refusal(
        "metadata_async",
        asyncMeta,
        [400, "unsupported_command"],
        [400, "invalid_request"],
      );
      c.check("CMD-METADATA-SYNC-ONLY", sync.ok, sync.details);
      // The account-command negatives use audit, which changes nothing.
      if (!(await k.supported()).includes("audit")) {
        for (const id of ["CMD-TOKEN-ACCOUNT-METADATA", "CMD-TOKEN-AUTH-PROVIDER", "CMD-TOKEN-ACCOUNT-SUB"])
          c.skipOnly(id, "not offered: commands_supported lacks audit", "not-offered");
        return;
      }
      const audit = await k.account("audit", sub, { label: "audit (baseline)" });
      if (audit.status !== 200)
        c.skip(`a valid audit answered ${said(audit)}: see CMD-AUDIT-STATE`, "dependency");
      await refused(
        c,
        k,
        "CMD-TOKEN-ACCOUNT-METADATA",
        "audit with metadata",
        { sub, claims: { metadata: {} } },
        "audit",
      );
      await refused(
        c,
        k,
        "CMD-TOKEN-AUTH-PROVIDER",
        "audit with authentication_provider",
        { sub, claims: { authentication_provider: "op" } },
        "audit",
      );
      await refused(
        c,
        k,
        "CMD-TOKEN-ACCOUNT-SUB",
        "audit naming no account (no sub, no aud_sub)",
        {},
        "audit",
      );
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.token-issuer",
    title: "a command token from an issuer the RP does not know answers 401 unrecognized_provider",
    requirements: ["CMD-TOKEN-ISSUER"],
    async run(c) {
      const k = new CommandClient(c);
      await baseline(c, k);
      const { res } = await k.send("metadata", {
        claims: { metadata: {}, iss: "https://unknown-op.idconform.invalid" },
        key: await strangerKey(k.signingKey, "idc-unknown-op"),
        label: "metadata from an unknown OP",
      });
      const unknown = refusal("metadata from an unknown OP", res, [401, "unrecognized_provider"]);
      c.check("CMD-TOKEN-ISSUER", unknown.ok, unknown.details);
      // A token that names no issuer, signed with the OP's own key, is refused too: it is both
      // an invalid Command Token (400 invalid_request) and from no issuer the RP recognizes
      // (401 unrecognized_provider); the document does not pick one.
      for (const iss of [undefined, "", 42, ["https://unknown-op.idconform.invalid"]]) {
        const what = iss === undefined ? "metadata without iss" : `metadata with iss ${JSON.stringify(iss)}`;
        const { res: r } = await k.send("metadata", {
          claims: { metadata: {}, iss },
          tenant: k.tenantFor("tokens"),
          label: what,
          tags: ["attack"],
        });
        const j = refusal(what, r, [401, "unrecognized_provider"], [400, "invalid_request"]);
        c.check("CMD-TOKEN-ISSUER", j.ok, j.details);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.malformed-request",
    title: "a request without command_token, or with one that is not a JWT, answers 400 invalid_request",
    requirements: ["CMD-REQUEST-MALFORMED"],
    async run(c) {
      const k = new CommandClient(c);
      const none = (
        await k.send("metadata", { omitToken: true, form: { token: "x" }, label: "no command_token" })
      ).res;
      const noToken = refusal("no command_token", none, [400, "invalid_request"]);
      c.check("CMD-REQUEST-MALFORMED", noToken.ok, noToken.details);
      const empty = (await k.send("metadata", { omitToken: true, label: "an empty form" })).res;
      const emptyForm = refusal("an empty form (no command_token)", empty, [400, "invalid_request"]);
      c.check("CMD-REQUEST-MALFORMED", emptyForm.ok, emptyForm.details);
      // Every shape of "not a JWT" a parser might let through: wrong segment counts, empty or
      // non-base64url segments, and header or payload that decode to JSON but not to an object.
      const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");
      const valid = await k.sign(
        k.claims("metadata", { tenant: k.tenantFor("tokens"), claims: { metadata: {} } }),
      );
      const [h = "", p = "", s = ""] = valid.split(".");
      // A JWS header without alg, or with an alg that is no string, is no JWS (RFC 7515 §4.1.1).
      const { alg: _alg, ...noAlg } = JSON.parse(Buffer.from(h, "base64url").toString("utf8")) as Record<
        string,
        unknown
      >;
      const garbage: [string, string][] = [
        ["not-a-jwt", "command_token not a JWT"],
        [`${h}.${p}`, "two segments"],
        [`${h}.${p}.${s}.${s}`, "four segments"],
        [`.${p}.${s}`, "an empty header segment"],
        [`${h}..${s}`, "an empty payload segment"],
        [`${h}.${p}*.${s}`, "a payload segment that is not base64url"],
        [`${b64([])}.${p}.${s}`, "a header that is a JSON array"],
        [`${b64(null)}.${p}.${s}`, "a header that is JSON null"],
        [`${h}.${b64("claims")}.${s}`, "a payload that is a JSON string"],
        [`${b64(noAlg)}.${p}.${s}`, "a header without alg"],
        [`${b64({ ...noAlg, alg: 256 })}.${p}.${s}`, "a header whose alg is a number"],
        [`${b64({ ...noAlg, alg: "" })}.${p}.${s}`, "a header whose alg is empty"],
      ];
      for (const [token, what] of garbage) {
        const res = (await k.send("metadata", { token, label: `command_token: ${what}` })).res;
        const r = refusal(`command_token with ${what}`, res, [400, "invalid_request"]);
        c.check("CMD-REQUEST-MALFORMED", r.ok, r.details);
      }
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.token-replay",
    title: "a command token replayed with the same jti is refused (a harness recommendation)",
    requirements: ["CMD-TOKEN-REPLAY"],
    async run(c) {
      const k = new CommandClient(c);
      const claims = k.claims("metadata", { tenant: k.tenantFor("tokens"), claims: { metadata: {} } });
      const token = await k.sign(claims);
      const first = (await k.send("metadata", { token, label: "metadata" })).res;
      if (first.status !== 200)
        c.skip(`a valid metadata command answered ${said(first)}: see CMD-METADATA-SUPPORTED`, "dependency");
      const again = (await k.send("metadata", { token, label: "the same token again" })).res;
      c.check("CMD-TOKEN-REPLAY", again.status >= 400 && again.status < 500, {
        expected: "the replay refused (4xx)",
        actual: said(again),
        kind: replayKind(again),
      });
      // A token in the last seconds of its life is still one use only: the RP keeps its jti for as
      // long as it would accept the token, not a fixed margin shorter than that.
      const now = Math.floor(Date.now() / 1000);
      const late = await k.sign({
        ...claims,
        jti: `${String(claims.jti)}-late`,
        iat: now - 40,
        exp: now + 20,
      });
      const lateFirst = (await k.send("metadata", { token: late, label: "metadata expiring in 20 s" })).res;
      if (lateFirst.status !== 200) {
        c.note(`a token expiring in 20 s answered ${said(lateFirst)}: its replay is not probed`);
        return;
      }
      const lateAgain = (await k.send("metadata", { token: late, label: "the token expiring in 20 s again" }))
        .res;
      c.check("CMD-TOKEN-REPLAY", lateAgain.status >= 400 && lateAgain.status < 500, {
        expected: "the replay of a token expiring in 20 s refused (4xx)",
        actual: said(lateAgain),
        kind: replayKind(lateAgain),
      });
    },
  }),
];
