import type { JWK } from "jose";
import type { CheckContext, Details } from "../../src/engine/check.js";
import type { FindingKind } from "../../src/engine/finding-kind.js";
import type { HttpResponse } from "../../src/http/client.js";
import { MockClient } from "../../src/http/mock-control.js";
import {
  commandClaims,
  signCommandToken,
  type CommandBase,
  type SignOptions,
} from "../../mocks/op/command-token.js";
import type { CommandsProfile } from "./profile.js";

type Ctx = CheckContext<CommandsProfile>;

/** What the suite's setup hands to the checks (suite.ts). */
export interface CommandsProvided {
  /** Where the checks reach the mock OP (its control routes). */
  readonly opUrl: string;
  /** Where the RP reaches it: the base of notification_endpoint. */
  readonly opPublicUrl: string;
  readonly issuer: string;
  readonly controlToken: string;
  /** The OP's private signing key (JSON), when the profile gave none. */
  readonly signingKey: string;
}

/** The run's tenant: the profile's, or `<prefix>-<run tag>`; checks that need their own add a suffix. */
export function runTenant(p: CommandsProfile, runId: string): string {
  return p.tenant ?? `${p.subPrefix}-${runId.slice(-4)}`;
}

/** The prefix of every sub this run creates: `<prefix>-<run suffix>-`. */
export function runTag(p: CommandsProfile, runId: string): string {
  return `${p.subPrefix}-${runId.slice(-4)}-`;
}

/** Tenants of this run besides the main one (each check with its own metadata uses one). */
export const TENANTS = [
  "async",
  "failure",
  "replace",
  "stream",
  "resume",
  "empty",
  "unsupported",
  "tokens",
  "isolated",
  "neighbour",
] as const;

/** The account commands of the state table, and those of Tenant Commands. */
export const LIFECYCLE = [
  "activate",
  "maintain",
  "suspend",
  "reactivate",
  "archive",
  "restore",
  "delete",
  "invalidate",
] as const;
export const ASYNC = [
  "activate",
  "maintain",
  "suspend",
  "reactivate",
  "archive",
  "restore",
  "delete",
  "invalidate",
].map((c) => `${c}_async`);
/**
 * Tenant commands of the document. Only metadata and audit_tenant are ever sent: the others
 * (suspend_tenant, archive_tenant, delete_tenant, invalidate_tenant, unauthorize) act on every
 * account of a tenant, or of the issuer, with semantics the document does not show.
 */
export const TENANT_COMMANDS = ["metadata", "audit_tenant"];

/** The tag every command exchange carries: `command:<name>`. */
export const commandTag = (command: string): string => `command:${command}`;

/** The command an exchange's tags name, if it is a command exchange. */
export const taggedCommand = (tags: readonly string[]): string | undefined =>
  tags.find((t) => t.startsWith("command:"))?.slice("command:".length);

export interface SendOptions extends SignOptions {
  readonly tenant?: string;
  readonly sub?: string;
  /** Claims to add or (with undefined) remove. */
  readonly claims?: Record<string, unknown>;
  /** Sign with this key instead of the OP's. */
  readonly key?: JWK;
  /** Send this token as it is. */
  readonly token?: string;
  /** More form parameters beside command_token, or a whole form without it. */
  readonly form?: Record<string, string>;
  readonly omitToken?: boolean;
  readonly headers?: Record<string, string>;
  readonly label?: string;
  /** What the request is (`attack`: a command the RP must refuse), for observers. */
  readonly tags?: readonly string[];
  /** For streams: decode and stop early. */
  readonly decode?: boolean;
  readonly stopWhen?: (text: string) => boolean;
}

const supportedCache = new Map<string, string[] | undefined>();

/**
 * The OP's side of the Command Endpoint for the checks: signs Command Tokens with the OP's
 * key and POSTs them (form `command_token`) through the check's recording client.
 */
export class CommandClient {
  readonly tag: string;
  readonly tenant: string;
  readonly provided: CommandsProvided;
  private readonly jwk: JWK;
  private seq = 0;
  /** The RP's aud_sub for each sub it answered one for; sent back in later account commands. */
  private readonly audSubs = new Map<string, string>();
  /** Subs of accounts the RP acknowledged (see `acknowledge`): the only ones `remove` deletes. */
  private readonly made = new Set<string>();

  constructor(readonly c: Ctx) {
    this.provided = c.provided as unknown as CommandsProvided;
    this.tenant = runTenant(c.profile, c.runId);
    // The run's own mark, also when the profile fixes the tenant (other runs may share it).
    this.tag = runTag(c.profile, c.runId);
    const keyText = c.profile.op.signingKey ?? this.provided.signingKey;
    c.secret(keyText, "OP_SIGNING_KEY");
    this.jwk = withAlg(JSON.parse(keyText) as JWK);
  }

  /** The OP's private signing key (with its alg), for checks that forge tokens from it. */
  get signingKey(): JWK {
    return this.jwk;
  }

  get base(): CommandBase {
    return {
      iss: this.provided.issuer,
      aud: this.c.profile.baseUrl,
      clientId: this.c.profile.clientId,
      tenant: this.tenant,
    };
  }

  /** A unique sub of this run: `<tag><what>-<n><random>`. */
  sub(what: string): string {
    return `${this.tag}${what}-${++this.seq}${Math.random().toString(36).slice(2, 6)}`;
  }

  tenantFor(what: (typeof TENANTS)[number]): string {
    return `${this.tenant}-${what}`;
  }

  /** The claims of a command (tenant and sub as asked), before signing. */
  claims(command: string, o: Pick<SendOptions, "tenant" | "sub" | "claims"> = {}): Record<string, unknown> {
    return commandClaims({ ...this.base, tenant: o.tenant ?? this.tenant }, command, {
      ...(o.sub !== undefined ? { sub: o.sub } : {}),
      ...o.claims,
    });
  }

  async sign(claims: Record<string, unknown>, o: SignOptions & { key?: JWK } = {}): Promise<string> {
    return signCommandToken(o.key ?? this.jwk, claims, o);
  }

  /** Sends one command; returns the response and the claims it carried. */
  async send(
    command: string,
    o: SendOptions = {},
  ): Promise<{ res: HttpResponse; claims: Record<string, unknown> }> {
    const claims = this.claims(command, o);
    const token = o.token ?? (await this.sign(claims, o));
    // The evidence keeps a token's header and claims, never a signature that could be replayed.
    const signature = token.split(".")[2];
    if (signature) this.c.secret(signature, "COMMAND_TOKEN_SIGNATURE");
    const form = { ...(o.omitToken ? {} : { command_token: token }), ...o.form };
    const res = await this.c.http.post(this.c.profile.baseUrl, {
      form,
      ...(o.headers ? { headers: o.headers } : {}),
      label: o.label ?? command,
      // The command's name goes with the exchange, so observers know exactly what they see.
      tags: [commandTag(command), ...(o.tags ?? [])],
      ...(o.decode ? { decode: true } : {}),
      ...(o.stopWhen ? { stopWhen: o.stopWhen } : {}),
    });
    this.acknowledge(command, token, res);
    return { res, claims };
  }

  /**
   * Remembers the account a command named when the RP's answer shows it holds (or is making)
   * that account: a 2xx to a command that creates one (activate, migrate, their _async forms),
   * or any answer naming the sub with a state other than unknown. Read from the token that
   * was sent, so a forged command the RP accepted counts too.
   */
  private acknowledge(command: string, token: string, res: HttpResponse): void {
    let sub: unknown;
    try {
      sub = (
        JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { sub?: unknown }
      ).sub;
    } catch {
      return;
    }
    if (typeof sub !== "string") return;
    const b = body(res);
    const creates = /^(activate|migrate)(_async)?$/.test(command) && res.status >= 200 && res.status < 300;
    const holds = b.sub === sub && typeof b.account_state === "string" && b.account_state !== "unknown";
    if (creates || holds) this.made.add(sub);
  }

  /** The aud_sub the RP answered for `sub` (undefined before it answered one, or after delete). */
  audSubOf(sub: string): string | undefined {
    return this.audSubs.get(sub);
  }

  /**
   * The claims `account` adds to an account command on `sub` besides the token's own: account
   * claims for activate and maintain, and the aud_sub the RP answered (account resolution,
   * specs/002 area A), then `over`. A check that signs such a token itself (to forge it) uses
   * this, so the forgery differs from a valid command only in what it attacks.
   */
  accountCommandClaims(
    command: string,
    sub: string,
    over: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const base = command.startsWith("activate") || command.startsWith("maintain") ? accountClaims(sub) : {};
    const known = command.startsWith("activate") ? undefined : this.audSubs.get(sub);
    return { ...base, ...(known ? { aud_sub: known } : {}), ...over };
  }

  /**
   * An account command on `sub` (with account claims for activate and maintain). Once the RP
   * answered an aud_sub for the account, it is sent along (account resolution, specs/002
   * area A), as an RP with aud_sub_required expects.
   */
  async account(command: string, sub: string, o: SendOptions = {}): Promise<HttpResponse> {
    const res = (
      await this.send(command, {
        ...o,
        sub,
        claims: this.accountCommandClaims(command, sub, o.claims),
        label: o.label ?? `${command}(${sub.slice(this.tag.length)})`,
      })
    ).res;
    const b = body(res);
    if (typeof b.aud_sub === "string" && b.sub === sub && o.claims?.aud_sub === undefined)
      this.audSubs.set(sub, b.aud_sub);
    if (command.startsWith("delete") && res.status === 200 && b.account_state === "unknown")
      this.audSubs.delete(sub);
    return res;
  }

  /** The Metadata Command for `tenant`, naming the mock OP's notification endpoint `slot`. */
  async metadata(
    tenant: string,
    slot?: string,
    more: Record<string, unknown> = {},
    o: SendOptions = {},
  ): Promise<HttpResponse> {
    const metadata = {
      ...(slot ? { notification_endpoint: this.notificationEndpoint(slot) } : {}),
      claims_supported: ["given_name", "family_name", "email", "email_verified", "groups"],
      ...more,
    };
    return (
      await this.send("metadata", {
        ...o,
        tenant,
        claims: { metadata, ...o.claims },
        label: o.label ?? "metadata",
      })
    ).res;
  }

  notificationEndpoint(slot: string): string {
    return `${this.provided.opPublicUrl}/notifications/${slot}`;
  }

  mock(): MockClient {
    return new MockClient(this.provided.opUrl, this.provided.controlToken);
  }

  /**
   * commands_supported from the Metadata Response for `tenant` (the run's by default; once per
   * worker and tenant, since an RP may answer differently per tenant); skips the check when
   * the RP gives none, since every check depends on it.
   */
  async supported(tenant = this.tenant): Promise<string[]> {
    const key = `${this.c.profile.baseUrl}|${tenant}`;
    if (!supportedCache.has(key)) {
      const res = await this.metadata(tenant, undefined, {}, { label: "metadata (commands_supported)" });
      const list = (res.json as { commands_supported?: unknown } | undefined)?.commands_supported;
      supportedCache.set(
        key,
        res.status === 200 && Array.isArray(list)
          ? list.filter((x): x is string => typeof x === "string")
          : undefined,
      );
    }
    const got = supportedCache.get(key);
    if (got === undefined)
      return this.c.skip(
        "the metadata command gave no commands_supported: see CMD-METADATA-SUPPORTED",
        "dependency",
      );
    return got;
  }

  /** Skips unless the RP lists every one of `commands` (for the run's tenant). */
  async need(...commands: string[]): Promise<void> {
    return this.needIn(this.tenant, ...commands);
  }

  /** Skips unless the RP lists every one of `commands` for `tenant`. */
  async needIn(tenant: string, ...commands: string[]): Promise<void> {
    const list = await this.supported(tenant);
    const missing = commands.filter((x) => !list.includes(x));
    if (missing.length > 0)
      this.c.skip(`not offered: commands_supported lacks ${missing.join(", ")}`, "not-offered");
  }

  /**
   * Deletes accounts at the end of a check, best effort; what is not gone is noted for the
   * report. Only accounts the RP acknowledged (see `acknowledge`) are deleted and reported: a
   * sub it refused to create (an RP without activate) is no account to clean up.
   */
  async remove(...subs: string[]): Promise<void> {
    for (const sub of subs) {
      if (!this.made.has(sub)) continue;
      try {
        const res = await this.account("delete", sub, { label: "clean up" });
        const gone =
          res.status === 200 ||
          res.status === 204 ||
          (res.status === 409 && body(res).account_state === "unknown");
        if (!gone) this.c.note(`could not delete account ${sub}: ${said(res)}`);
      } catch (err) {
        this.c.note(`could not delete account ${sub}: ${(err as Error).message}`);
      }
    }
  }
}

/**
 * The JWK with its `alg`: the one it names, else the usual one for its key type (RS256 for
 * RSA, EdDSA for OKP, ES256/384/512 by curve), so an OP key given without alg signs as it would.
 */
export function withAlg(jwk: JWK): JWK {
  if (typeof jwk.alg === "string") return jwk;
  const alg =
    jwk.kty === "RSA"
      ? "RS256"
      : jwk.kty === "OKP"
        ? "EdDSA"
        : (({ "P-384": "ES384", "P-521": "ES512" } as Record<string, string>)[jwk.crv ?? ""] ?? "ES256");
  return { ...jwk, alg };
}

/** The account claims an Activate or Maintain carries. */
export function accountClaims(sub: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    given_name: "Ada",
    family_name: "Lovelace",
    email: `${sub}@example.test`,
    email_verified: true,
    groups: [],
    ...over,
  };
}

export const body = (res: HttpResponse): Record<string, unknown> =>
  res.json !== null && typeof res.json === "object" && !Array.isArray(res.json)
    ? (res.json as Record<string, unknown>)
    : {};

export const stateOf = (res: HttpResponse): unknown => body(res).account_state;

/** "400 invalid_request" style summary of a response, for findings. */
export function said(res: HttpResponse): string {
  const b = body(res);
  return `${res.status}${typeof b.error === "string" ? ` ${b.error}` : ""}${typeof b.account_state === "string" ? ` account_state ${b.account_state}` : ""}${res.text && typeof b.error !== "string" && typeof b.account_state !== "string" ? ` ${res.text.slice(0, 120)}` : ""}`;
}

/** True when the response is `status` with JSON `error` equal to `error`. */
export function isError(res: HttpResponse, status: number, error: string): boolean {
  return res.status === status && body(res).error === error;
}

/** An error answer a check requires: its status and JSON `error`. */
export type Refusal = readonly [status: number, error: string];

/**
 * The kind of a violation by an answer that is none of `wanted`: a 2xx where a refusal was due
 * is `accepted` (the RP acted on it); another status `wrong-status`; a wanted status without a
 * JSON `error` is `missing` it, with another one `wrong-code`. With `accepts` false a 2xx is only
 * a `wrong-status` (a 404 for something that is not there: answering it is no acceptance).
 */
export function refusalKind(res: HttpResponse, wanted: readonly Refusal[], accepts = true): FindingKind {
  if (res.status >= 200 && res.status < 300) return accepts ? "accepted" : "wrong-status";
  if (!wanted.some(([s]) => s === res.status)) return "wrong-status";
  return typeof body(res).error === "string" ? "wrong-code" : "missing";
}

/**
 * Judges an answer that had to refuse (one of `wanted`), and says how it fell short, so a
 * finding tells an RP that refused with the wrong error code apart from one that accepted
 * what it had to refuse: "accepted: answered 200 ...", "refused with 400
 * unsupported_command, expected 400 invalid_request", or another answer (a redirect, a server
 * error). The one place that names these kinds; each finding carries its kind (`refusalKind`).
 */
export function refusal(
  what: string,
  res: HttpResponse,
  ...wanted: readonly Refusal[]
): { ok: boolean; details: Details } {
  const want = wanted.map(([s, e]) => `${s} ${e}`).join(" or ");
  const expected = `${what}: ${want}`;
  if (wanted.some(([s, e]) => isError(res, s, e)))
    return { ok: true, details: { expected, actual: said(res), res } };
  const kind =
    res.status >= 200 && res.status < 300
      ? {
          message: "accepted: the RP acted on what it had to refuse",
          actual: `accepted: answered ${said(res)}`,
        }
      : res.status >= 400 && res.status < 500
        ? { message: "refused, with the wrong error", actual: `refused with ${said(res)}, expected ${want}` }
        : {
            message:
              res.status >= 500 ? "not refused: a server error" : `not refused: answered ${res.status}`,
            actual: `answered ${said(res)}, expected ${want}`,
          };
  return {
    ok: false,
    details: {
      message: `${what}: ${kind.message}`,
      expected,
      actual: kind.actual,
      res,
      kind: refusalKind(res, wanted),
    },
  };
}
