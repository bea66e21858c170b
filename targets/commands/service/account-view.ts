import type { FaultSet } from "../faults.js";
import { CommandError } from "../http/reply.js";
import type { AccountRequest } from "../token/command-rules.js";
import type { Account } from "./account-store.js";
import { pendingStateOf, type AccountState } from "./lifecycle.js";

/**
 * How accounts show in responses (specs/002 area A Response properties, Endpoints). The
 * faults that change only what a response shows (`async-no-pending`, `aud-sub-ignored`,
 * `conflict-without-state`) act here.
 */
export class AccountView {
  constructor(private readonly faults: FaultSet) {}

  /** The account_state: the pending state while an asynchronous command runs. */
  state(account: Account | undefined): AccountState {
    if (account === undefined) return "unknown";
    return account.pending !== undefined ? pendingStateOf(account.pending) : account.steady;
  }

  /** The account_state Audit reports: the old steady state while pending under `async-no-pending`. */
  // Stryker disable next-line BlockStatement: equivalent: an undefined state makes success() fall back to its default, the same state()
  audited(account: Account | undefined): AccountState {
    return this.faults.has("async-no-pending") ? (account?.steady ?? "unknown") : this.state(account);
  }

  /** The aud_sub member (aud_sub_required is true: every account response carries it). */
  audSub(account: Account | undefined): { aud_sub?: string } {
    if (account === undefined || this.faults.has("aud-sub-ignored")) return {};
    return { aud_sub: account.audSub };
  }

  /** The Account Command success body: sub, account_state, aud_sub. */
  success(account: Account, state: AccountState = this.state(account)): Record<string, unknown> {
    return { sub: account.sub, account_state: state, ...this.audSub(account) };
  }

  /**
   * The Incompatible State Response: 409 with error incompatible_state, the current
   * account_state and sub (and aud_sub of an existing account). For an account that does
   * not exist, sub is the token's (or, named only by an unknown aud_sub, that aud_sub).
   */
  conflict(account: Account | undefined, req: AccountRequest): CommandError {
    const sub = account?.sub ?? req.sub;
    const extra: Record<string, unknown> = {
      ...(this.faults.has("conflict-without-state") ? {} : { account_state: this.state(account) }),
      ...(sub !== undefined ? { sub } : {}),
      // Stryker disable next-line all: a command naming only an aud_sub that no account holds: the document's 409 body names sub, which such a command does not give; what the RP echoes instead it leaves open
      ...(account === undefined && sub === undefined && req.audSub !== undefined
        ? // Stryker disable next-line all: see above
          { aud_sub: req.audSub }
        : {}),
      ...this.audSub(account),
    };
    return new CommandError(
      409,
      "incompatible_state",
      `the account's state does not allow ${req.command}`,
      extra,
    );
  }
}
