import { randomUUID } from "node:crypto";
import { CommandError } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import type { AuthenticationProvider } from "../token/command-rules.js";
import type { AsyncBase } from "./commands.js";
import type { SteadyState } from "./lifecycle.js";

/**
 * An Account at the RP (specs/002 area A): identified by (iss, sub), known to the OP also by
 * the RP's own `aud_sub`. `steady` is `unknown` only while an activate_async is pending
 * (the account does not exist yet); `pending` names the asynchronous command under way.
 */
export interface Account {
  readonly iss: string;
  readonly sub: string;
  /** The tenant of the token that activated the account. */
  readonly tenant: string;
  readonly audSub: string;
  steady: SteadyState;
  /** The claims the OP provided that the RP retained (as last maintained). */
  claims: Record<string, unknown>;
  authenticationProvider: AuthenticationProvider | undefined;
  pending: AsyncBase | undefined;
}

/**
 * The RP's accounts, in memory, in creation order. Deleting an account drops all its data,
 * so its sub can be activated again (with a new aud_sub). Full at `maxAccounts`: one more
 * answers 507.
 */
export class AccountStore {
  private readonly byKey = new Map<string, Account>();
  private readonly byAudSub = new Map<string, Account>();

  private static key(iss: string, sub: string): string {
    return `${iss}\u0000${sub}`;
  }

  /** The account (iss, sub). */
  bySub(iss: string, sub: string): Account | undefined {
    return this.byKey.get(AccountStore.key(iss, sub));
  }

  /**
   * The account a command names (specs/002 area A Endpoints: by aud_sub if the RP provided
   * one, else by iss and sub). An aud_sub takes precedence; one the RP never assigned to an
   * account of this issuer names no account.
   */
  resolve(iss: string, sub: string | undefined, audSub: string | undefined): Account | undefined {
    if (audSub !== undefined) {
      const account = this.byAudSub.get(audSub);
      return account?.iss === iss ? account : undefined;
    }
    // Stryker disable next-line all: this RP sets aud_sub_required, so it may refuse a command naming an existing account by sub alone; no requirement decides how one resolves (bySub(iss, undefined) finds nothing either), and activate looks its sub up itself
    return sub === undefined ? undefined : this.bySub(iss, sub);
  }

  create(iss: string, sub: string, tenant: string, claims: Record<string, unknown>): Account {
    // Stryker disable next-line BlockStatement: a memory bound (limits.ts) no requirement states
    if (this.byKey.size >= LIMITS.maxAccounts) {
      // Stryker disable next-line StringLiteral: a memory bound (limits.ts) no requirement states
      throw new CommandError(507, "server_error", `this RP holds at most ${LIMITS.maxAccounts} accounts`);
    }
    const account: Account = {
      iss,
      sub,
      tenant,
      audSub: `rp-${randomUUID()}`,
      // Stryker disable next-line StringLiteral: equivalent: always overwritten, by apply() (the new state) or by begin() (unknown, for a held activate_async)
      steady: "active",
      claims,
      authenticationProvider: undefined,
      pending: undefined,
    };
    this.byKey.set(AccountStore.key(iss, sub), account);
    this.byAudSub.set(account.audSub, account);
    return account;
  }

  remove(account: Account): void {
    this.byKey.delete(AccountStore.key(account.iss, account.sub));
    this.byAudSub.delete(account.audSub);
  }

  /** The accounts of one tenant of one OP, oldest first. */
  inTenant(iss: string, tenant: string): Account[] {
    return [...this.byKey.values()].filter((a) => a.iss === iss && a.tenant === tenant);
  }
}
