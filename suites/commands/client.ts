import type { JWK } from "jose";
import type { CheckContext } from "../../src/engine/check.js";
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

/** Tenants of this run besides the main one (each check with its own metadata uses one). */
export const TENANTS = ["async", "failure", "replace", "stream", "resume", "empty", "unsupported"] as const;

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
export const ASYNC = ["activate", "maintain", "suspend", "reactivate", "archive", "restore", "delete"].map(
  (c) => `${c}_async`,
);
export const TENANT_COMMANDS = [
  "metadata",
  "audit_tenant",
  "suspend_tenant",
  "archive_tenant",
  "delete_tenant",
  "invalidate_tenant",
  "unauthorize",
];

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

  constructor(readonly c: Ctx) {
    this.provided = c.provided as unknown as CommandsProvided;
    this.tenant = runTenant(c.profile, c.runId);
    this.tag = `${this.tenant}-`;
    const keyText = c.profile.op.signingKey ?? this.provided.signingKey;
    c.secret(keyText, "OP_SIGNING_KEY");
    this.jwk = JSON.parse(keyText) as JWK;
  }

  get base(): CommandBase {
    return {
      iss: this.provided.issuer,
      aud: this.c.profile.baseUrl,
      clientId: this.c.profile.clientId,
      tenant: this.tenant,
    };
  }

  /** A unique sub of this run: `<tenant>-<what>-<n><random>`. */
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
      ...(o.decode ? { decode: true } : {}),
      ...(o.stopWhen ? { stopWhen: o.stopWhen } : {}),
    });
    return { res, claims };
  }

  /** An account command on `sub` (with account claims for activate and maintain). */
  async account(command: string, sub: string, o: SendOptions = {}): Promise<HttpResponse> {
    const base = command.startsWith("activate") || command.startsWith("maintain") ? accountClaims(sub) : {};
    return (
      await this.send(command, {
        ...o,
        sub,
        claims: { ...base, ...o.claims },
        label: o.label ?? `${command}(${sub.slice(this.tag.length)})`,
      })
    ).res;
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
   * commands_supported from the Metadata Response for the run's tenant (once per worker);
   * skips the check when the RP gives none, since every check depends on it.
   */
  async supported(): Promise<string[]> {
    const key = `${this.c.profile.baseUrl}|${this.tenant}`;
    if (!supportedCache.has(key)) {
      const res = await this.metadata(this.tenant, undefined, {}, { label: "metadata (commands_supported)" });
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

  /** Skips unless the RP lists every one of `commands`. */
  async need(...commands: string[]): Promise<void> {
    const list = await this.supported();
    const missing = commands.filter((x) => !list.includes(x));
    if (missing.length > 0)
      this.c.skip(`not offered: commands_supported lacks ${missing.join(", ")}`, "not-offered");
  }

  /** Deletes accounts at the end of a check, best effort; what fails is noted. */
  async remove(...subs: string[]): Promise<void> {
    for (const sub of subs) {
      try {
        const res = await this.account("delete", sub, { label: "clean up" });
        if (res.status !== 200 && res.status !== 204 && res.status !== 409)
          this.c.note(`could not delete account ${sub}: ${res.status}`);
      } catch (err) {
        this.c.note(`could not delete account ${sub}: ${(err as Error).message}`);
      }
    }
  }
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
