import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import type { AccountRequest } from "../token/command-rules.js";
import type { AccountCommands, Target } from "./account-commands.js";
import type { AccountStore } from "./account-store.js";
import type { AccountView } from "./account-view.js";
import type { AsyncBase } from "./commands.js";
import { pendingStateOf } from "./lifecycle.js";
import type { Notifier } from "./notifier.js";
import type { Scheduler } from "./scheduler.js";

/** Test hook: an activate_async or maintain_async whose email claim ends so fails. */
const FAIL_DOMAIN = "@fail.invalid";

export interface AsyncDeps {
  readonly commands: AccountCommands;
  readonly accounts: AccountStore;
  readonly view: AccountView;
  readonly notifier: Notifier;
  readonly scheduler: Scheduler;
  readonly faults: FaultSet;
}

const failsByHook = (base: AsyncBase, req: AccountRequest): boolean =>
  (base === "activate" || base === "maintain") &&
  typeof req.accountClaims.email === "string" &&
  req.accountClaims.email.toLowerCase().endsWith(FAIL_DOMAIN);

/**
 * The asynchronous Account Commands (specs/002 area A What the service does; States and
 * transitions: temporary states). A failed precondition answers 409 at once; otherwise 202
 * Accepted, the account enters the matching pending state, and after `asyncCompletionMs`
 * the command completes (or fails, returning to the last steady state) and its final
 * result goes to the OP in a Notification Token.
 */
export class AsyncCommands {
  constructor(private readonly d: AsyncDeps) {}

  /** Accepts `<base>_async`: the 202 body (sub and the pending account_state). */
  begin(req: AccountRequest, base: AsyncBase): Record<string, unknown> {
    const target = this.d.commands.target(req, base);
    let account = target.account;
    // An account being activated is held (steady state unknown) until the command completes.
    if (account === undefined && base === "activate") {
      account = this.d.accounts.create(req.iss, req.sub ?? "", req.tenant, {});
      account.steady = "unknown";
    }
    if (account !== undefined) account.pending = base;
    this.d.scheduler.after(LIMITS.asyncCompletionMs, () => this.complete({ ...target, account }, req, base));
    // Stryker disable next-line ObjectLiteral: the document gives 202 Accepted no body (pending states MAY be reported wherever account_state appears)
    return {
      // Stryker disable next-line all: the document gives 202 Accepted no body; an account is undefined here only under the delete-unknown-200 fault
      ...(account !== undefined ? { sub: account.sub } : req.sub !== undefined ? { sub: req.sub } : {}),
      account_state: pendingStateOf(base),
      ...this.d.view.audSub(account),
    };
  }

  /** Completes (or fails) the command and notifies the OP of the final state. */
  private complete(target: Target, req: AccountRequest, base: AsyncBase): void {
    const { account } = target;
    const failed = failsByHook(base, req);
    let state: string;
    if (failed) {
      // Stryker disable next-line LogicalOperator: equivalent: the account is always defined here (a failing activate_async or maintain_async holds one), so only the fault switch decides
      if (account !== undefined && !this.d.faults.has("pending-kept-after-failure")) {
        account.pending = undefined;
        if (account.steady === "unknown") this.d.accounts.remove(account);
      }
      // Stryker disable next-line all: the document does not show the Notification Token (Notification Token claims: not shown), nor what it reports for a failed command
      state = account?.steady ?? "unknown";
    } else if (this.d.faults.has("async-notifies-without-applying")) {
      // async-notifies-without-applying: the final state is reported, but the command was never
      // applied: the account leaves its pending state for its old steady one.
      if (account !== undefined) {
        account.pending = undefined;
        if (account.steady === "unknown") this.d.accounts.remove(account);
      }
      state = target.transition.to;
    } else {
      // Stryker disable next-line all: equivalent: apply() clears the pending state itself (or removes the account); the account is undefined only under the delete-unknown-200 fault
      if (account !== undefined) account.pending = undefined;
      state = this.d.commands.apply(target, req, base)?.steady ?? "unknown";
    }
    if (this.d.faults.has("async-never-notified")) return;
    this.d.notifier.send({
      iss: req.iss,
      // Stryker disable next-line all: the same tenant in every check; which tenant's notification_endpoint gets the result of a command naming another tenant than the account's, the document does not say
      tenant: account?.tenant ?? req.tenant,
      // Stryker disable next-line StringLiteral: the document does not show the Notification Token (Notification Token claims: not shown)
      command: `${base}_async`,
      // Stryker disable next-line all: equivalent: the command named the account by its sub (the token's sub is the account's), and the account is undefined only under the delete-unknown-200 fault
      sub: account?.sub ?? req.sub,
      accountState: state,
      audSub: this.d.view.audSub(account).aud_sub,
      // Stryker disable next-line all: the document does not show the Notification Token (Notification Token claims: not shown), nor how it reports a failed command
      ...(failed ? { error: "operation_failed" } : {}),
    });
  }
}
