import type { FaultId, FaultSet } from "../faults.js";
import { CommandError, invalidRequest } from "../http/reply.js";
import type { AccountRequest } from "../token/command-rules.js";
import type { Account, AccountStore } from "./account-store.js";
import type { AccountView } from "./account-view.js";
import type { LifecycleCommand } from "./commands.js";
import { transitionOf, type SteadyState, type Transition } from "./lifecycle.js";
import type { SessionRegistry } from "./sessions.js";

/** Test hooks of the migrate policy: an account whose email ends so is refused. */
const MIGRATE_DENIED_DOMAIN = "@denied.invalid";
const MIGRATE_NOT_TRANSFERABLE_DOMAIN = "@external.invalid";

/** Faults under which a lifecycle command's success body names another account_state. */
// Stryker disable all: the fault catalog's table; it changes an answer only while its fault is switched on, and the fault matrix judges each entry
const MISREPORTED: Partial<Record<LifecycleCommand, readonly [FaultId, SteadyState]>> = {
  activate: ["activate-answers-unknown", "unknown"],
  maintain: ["maintain-answers-suspended", "suspended"],
  suspend: ["suspend-answers-active", "active"],
  reactivate: ["reactivate-answers-suspended", "suspended"],
  archive: ["archive-answers-suspended", "suspended"],
  delete: ["delete-answers-archived", "archived"],
  invalidate: ["invalidate-answers-suspended", "suspended"],
};
// Stryker restore all

const emailOf = (claims: Record<string, unknown>): string =>
  typeof claims.email === "string" ? claims.email.toLowerCase() : "";

/** The account a lifecycle command acts on, its precondition met. */
export interface Target {
  readonly account: Account | undefined;
  readonly transition: Transition;
}

/**
 * The synchronous Account Commands (specs/002 area A Endpoints, command table; States and
 * transitions: Account lifecycle): the lifecycle table, Audit and Migrate.
 */
export class AccountCommands {
  constructor(
    private readonly accounts: AccountStore,
    private readonly sessions: SessionRegistry,
    private readonly view: AccountView,
    private readonly faults: FaultSet,
  ) {}

  /**
   * The account `command` names and whether its precondition holds (else 409). An account
   * with an asynchronous command under way accepts no lifecycle command. Activate creates
   * the account (iss, sub): it needs sub, and no account may already hold that sub.
   */
  target(req: AccountRequest, command: LifecycleCommand): Target {
    let account = this.accounts.resolve(req.iss, req.sub, req.audSub);
    if (command === "activate" && account === undefined) {
      if (req.sub === undefined) throw invalidRequest("activate requires sub");
      account = this.accounts.bySub(req.iss, req.sub);
    }
    const transition = transitionOf(command, this.faults);
    const state = account === undefined ? "unknown" : account.steady;
    if (account?.pending !== undefined || !transition.from.includes(state)) {
      // activate-existing-overwrites: the claims are stored before the precondition is checked,
      // so the refused activate still replaces them.
      if (command === "activate" && account !== undefined && this.faults.has("activate-existing-overwrites"))
        account.claims = { ...req.accountClaims };
      throw this.view.conflict(account, req);
    }
    return { account, transition };
  }

  /**
   * Applies a transition whose precondition held: creates, updates or deletes the account
   * and performs the Invalidate Functionality or grants a fresh session. Answers the account
   * (undefined once deleted or never created).
   */
  apply(target: Target, req: AccountRequest, command: LifecycleCommand): Account | undefined {
    const { transition } = target;
    let account = target.account;
    if (command === "activate") {
      // Created with the included claims; an account held for an activate_async, or
      // re-activated under the activate-existing-succeeds fault, gets them replaced.
      // Stryker disable next-line StringLiteral: activate always carries a sub here (target() refuses one without), so the fallback is never used
      if (account === undefined) account = this.accounts.create(req.iss, req.sub ?? "", req.tenant, {});
      // delete-soft: a deleted account was only marked; activating it again revives its old data.
      const revived = this.faults.has("delete-soft") && account.steady === "unknown";
      account.claims = revived ? { ...account.claims, ...req.accountClaims } : { ...req.accountClaims };
    } else if (command === "maintain" && account !== undefined) {
      // Updated with the included claims; claims not included keep their values.
      account.claims = { ...account.claims, ...req.accountClaims };
    }
    if (account === undefined) return undefined;
    if (transition.revokes) this.sessions.revokeAll(account.audSub);
    if (transition.to === "unknown" && this.faults.has("delete-soft")) {
      account.steady = "unknown";
      return undefined;
    }
    if (transition.to === "unknown") {
      this.accounts.remove(account);
      this.sessions.revokeAll(account.audSub);
      return undefined;
    }
    // reactivate-not-stored: the answer says active, the stored state stays suspended.
    // Stryker disable next-line ConditionalExpression: equivalent: the negated fault switch is true whenever reactivate-not-stored is off
    if (!(command === "reactivate" && this.faults.has("reactivate-not-stored")))
      account.steady = transition.to;
    account.pending = undefined;
    if (transition.grants) this.sessions.grant(account.audSub);
    return account;
  }

  /** A synchronous lifecycle command: 200 with sub, account_state and aud_sub, or 409. */
  lifecycle(req: AccountRequest, command: LifecycleCommand): Record<string, unknown> {
    const target = this.target(req, command);
    const after = this.apply(target, req, command);
    const gone = target.account;
    let body =
      after !== undefined
        ? this.view.success(after)
        : gone === undefined
          ? // Stryker disable next-line all: reached only under the delete-unknown-200 fault (a delete that found no account succeeds)
            { ...(req.sub !== undefined ? { sub: req.sub } : {}), account_state: "unknown" }
          : this.view.success(gone, "unknown");
    if (command === "reactivate" && this.faults.has("reactivate-not-stored"))
      body = { ...body, account_state: "active" };
    const lie = MISREPORTED[command];
    if (lie !== undefined && this.faults.has(lie[0])) body = { ...body, account_state: lie[1] };
    if (command === "activate" && this.faults.has("success-no-sub")) {
      const { sub: _sub, ...rest } = body;
      body = rest;
    }
    return body;
  }

  /**
   * Audit: the account's state and the claims it retained that the OP provided (as last
   * maintained), plus authentication_provider once migrated. An account that does not exist
   * is reported as unknown (200, not 409).
   */
  audit(req: AccountRequest): Record<string, unknown> {
    const account = this.accounts.resolve(req.iss, req.sub, req.audSub);
    const state = this.view.audited(account);
    // Stryker disable next-line LogicalOperator,StringLiteral: equivalent: an existing account shows unknown only while an activate_async is held, and then it shows activate_pending
    if (account === undefined || state === "unknown") {
      if (this.faults.has("audit-unknown-409")) throw this.view.conflict(account, req);
      return { ...(req.sub !== undefined ? { sub: req.sub } : {}), account_state: "unknown" };
    }
    const claims = this.faults.has("audit-drops-claims") ? {} : account.claims;
    return {
      ...claims,
      ...this.view.success(account, state),
      // Stryker disable next-line all: audit MAY include authentication_provider (command table, audit)
      ...(account.authenticationProvider !== undefined
        ? // Stryker disable next-line all: audit MAY include authentication_provider (command table, audit)
          { authentication_provider: account.authenticationProvider }
        : {}),
    };
  }

  /**
   * Migrate: the account must exist (else 409); the RP's policy may refuse (403
   * access_denied) or the current provider may not allow transfer (409
   * authentication_not_transferable). Then the account uses the requested provider.
   */
  migrate(req: AccountRequest): Record<string, unknown> {
    const account = this.accounts.resolve(req.iss, req.sub, req.audSub);
    if (account === undefined || account.pending !== undefined || account.steady === "unknown") {
      throw this.view.conflict(account, req);
    }
    const email = emailOf(account.claims);
    if (email.endsWith(MIGRATE_DENIED_DOMAIN) && !this.faults.has("migrate-denied-succeeds")) {
      throw new CommandError(403, "access_denied", "the RP's policy does not allow this migration");
    }
    if (email.endsWith(MIGRATE_NOT_TRANSFERABLE_DOMAIN) && !this.faults.has("migrate-transfer-succeeds")) {
      throw new CommandError(
        409,
        "authentication_not_transferable",
        "the account's authentication provider does not allow transfer",
      );
    }
    // Stryker disable next-line all: the document shows nowhere a migrate's new provider must appear (the success response is sub, account_state, aud_sub; audit MAY include authentication_provider)
    if (req.authenticationProvider !== undefined) account.authenticationProvider = req.authenticationProvider;
    return {
      ...this.view.success(account),
      // Stryker disable next-line all: the Account Command success response is sub, account_state and aud_sub; authentication_provider is an extra
      ...(account.authenticationProvider !== undefined
        ? // Stryker disable next-line all: the Account Command success response is sub, account_state and aud_sub; authentication_provider is an extra
          { authentication_provider: account.authenticationProvider }
        : {}),
    };
  }
}
