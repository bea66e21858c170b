import fc from "fast-check";
import type { HttpResponse } from "../../../src/http/client.js";
import { body, type CommandClient } from "../client.js";

/** Steady states of specs/002 area A "Account lifecycle". */
export type State = "unknown" | "active" | "suspended" | "archived";

/** The state table: for each command, the state it leads to from each state it is allowed in. */
export const TABLE: Record<string, Partial<Record<State, State>>> = {
  activate: { unknown: "active" },
  maintain: { active: "active" },
  suspend: { active: "suspended" },
  reactivate: { suspended: "active" },
  archive: { active: "archived", suspended: "archived" },
  restore: { archived: "active" },
  delete: { active: "unknown", suspended: "unknown", archived: "unknown" },
  invalidate: { active: "active" },
};

export interface Model {
  readonly states: State[];
}
export interface Real {
  readonly k: CommandClient;
  readonly subs: readonly string[];
}

/** A command that broke the model; carries the response, so the finding shows that exchange. */
export class ModelFailure extends Error {
  constructor(
    message: string,
    readonly res: HttpResponse,
  ) {
    super(message);
  }
}

function fail(cmd: string, expected: string, r: HttpResponse): never {
  throw new ModelFailure(`${cmd}: expected ${expected}, got ${r.status} ${r.text.slice(0, 160)}`, r);
}

/** One lifecycle command on one account, checked against the state table. */
export class Lifecycle implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly command: string,
    readonly slot: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const sub = r.subs[this.slot]!;
    const from = m.states[this.slot]!;
    const to = TABLE[this.command]?.[from];
    const res = await r.k.account(this.command, sub, { label: this.toString() });
    const b = body(res);
    if (to === undefined) {
      if (res.status !== 409 || b.error !== "incompatible_state" || b.account_state !== from) {
        fail(this.toString(), `409 incompatible_state with account_state ${from}`, res);
      }
      return;
    }
    if (!(res.status === 204 || (res.status === 200 && b.account_state === to)))
      fail(this.toString(), `200 with account_state ${to}`, res);
    m.states[this.slot] = to;
  }
  toString(): string {
    return `${this.command}(a${this.slot})`;
  }
}

/** Audit: the state the model holds (unknown when the account does not exist). */
export class Audit implements fc.AsyncCommand<Model, Real> {
  constructor(readonly slot: number) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const res = await r.k.account("audit", r.subs[this.slot]!, { label: this.toString() });
    const want = m.states[this.slot]!;
    if (res.status !== 200 || body(res).account_state !== want)
      fail(this.toString(), `200 with account_state ${want}`, res);
  }
  toString(): string {
    return `audit(a${this.slot})`;
  }
}

/** The commands the RP supports, as one weighted choice over `slots` accounts. */
export function commandArbitrary(
  supported: readonly string[],
  slots: number,
): fc.Arbitrary<fc.AsyncCommand<Model, Real>> {
  const slot = fc.integer({ min: 0, max: slots - 1 });
  const picks: { weight: number; arbitrary: fc.Arbitrary<fc.AsyncCommand<Model, Real>> }[] = Object.keys(
    TABLE,
  )
    .filter((cmd) => supported.includes(cmd))
    .map((cmd) => ({
      weight: cmd === "activate" ? 4 : 2,
      arbitrary: slot.map((i) => new Lifecycle(cmd, i)),
    }));
  if (supported.includes("audit")) picks.push({ weight: 2, arbitrary: slot.map((i) => new Audit(i)) });
  return fc.oneof(...picks);
}
