import fc from "fast-check";
import type { HttpResponse } from "../../../src/http/client.js";
import { ScimClient, URN } from "../scim-client.js";

/**
 * The model of specs/002 area C "States and transitions (SCIM users)" for one userName:
 * absent → (create) active ⇄ deactivated → (delete) absent, and create again is allowed.
 */
export interface Slot {
  userName: string;
  id: string | undefined;
  exists: boolean;
  active: boolean;
}
export interface Model {
  readonly slots: Slot[];
}
export interface Real {
  readonly s: ScimClient;
  /** Every id created and not yet deleted, for clean-up after the run. */
  readonly created: Set<string>;
}

const ok = (r: HttpResponse): boolean => r.status === 200 || r.status === 204;
/** A slot never created in this run addresses an id no server issued, which must be 404. */
const path = (slot: Slot): string =>
  `/Users/${encodeURIComponent(slot.id ?? `idc-never-created-${slot.userName}`)}`;

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
  throw new ModelFailure(`${cmd}: expected ${expected}, got ${r.status} ${r.text.slice(0, 120)}`, r);
}

export abstract class SlotCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly slot: number) {}
  /**
   * Every command may run in every state: before its slot was ever created it addresses an
   * unknown id and expects 404. No command is filtered out, so every generated step is a request.
   */
  check(): boolean {
    return true;
  }
  abstract run(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
}

export class Create extends SlotCommand {
  async run(m: Model, r: Real): Promise<void> {
    const slot = m.slots[this.slot]!;
    const res = await r.s.call("POST", "/Users", { body: r.s.user(slot.userName), label: this.toString() });
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (typeof id === "string" && res.status === 201) r.created.add(id);
    if (slot.exists) {
      if (res.status !== 409) fail(this.toString(), "409 (the userName is taken)", res);
      return;
    }
    if (res.status !== 201 || typeof id !== "string") fail(this.toString(), "201 with an id", res);
    Object.assign(slot, { id, exists: true, active: true });
  }
  toString(): string {
    return `create(u${this.slot})`;
  }
}

export class SetActive extends SlotCommand {
  constructor(
    slot: number,
    readonly active: boolean,
  ) {
    super(slot);
  }
  async run(m: Model, r: Real): Promise<void> {
    const slot = m.slots[this.slot]!;
    const body = {
      schemas: [URN.patch],
      Operations: [{ op: "replace", path: "active", value: this.active }],
    };
    const res = await r.s.call("PATCH", path(slot), { body, label: this.toString() });
    if (!slot.exists) {
      if (res.status !== 404) fail(this.toString(), "404 (deleted)", res);
      return;
    }
    if (!ok(res)) fail(this.toString(), "200 or 204", res);
    slot.active = this.active;
  }
  toString(): string {
    return `${this.active ? "reactivate" : "deactivate"}(u${this.slot})`;
  }
}

export class Rename extends SlotCommand {
  async run(m: Model, r: Real): Promise<void> {
    const slot = m.slots[this.slot]!;
    const body = {
      schemas: [URN.patch],
      Operations: [{ op: "replace", path: "displayName", value: `renamed ${slot.userName}` }],
    };
    const res = await r.s.call("PATCH", path(slot), { body, label: this.toString() });
    if (slot.exists ? !ok(res) : res.status !== 404)
      fail(this.toString(), slot.exists ? "200 or 204" : "404 (deleted)", res);
  }
  toString(): string {
    return `patch(u${this.slot})`;
  }
}

export class Delete extends SlotCommand {
  async run(m: Model, r: Real): Promise<void> {
    const slot = m.slots[this.slot]!;
    const res = await r.s.call("DELETE", path(slot), { label: this.toString() });
    if (res.status === 204 && slot.id !== undefined) r.created.delete(slot.id);
    if (slot.exists ? res.status !== 204 : res.status !== 404)
      fail(this.toString(), slot.exists ? "204" : "404 (already deleted)", res);
    slot.exists = false;
  }
  toString(): string {
    return `delete(u${this.slot})`;
  }
}

export class Get extends SlotCommand {
  async run(m: Model, r: Real): Promise<void> {
    const slot = m.slots[this.slot]!;
    const res = await r.s.call("GET", path(slot), { label: this.toString() });
    if (!slot.exists) {
      if (res.status !== 404) fail(this.toString(), "404 (deleted)", res);
      return;
    }
    const active = (res.json as { active?: unknown } | undefined)?.active;
    if (res.status !== 200 || active !== slot.active)
      fail(this.toString(), `200 with active ${slot.active}`, res);
  }
  toString(): string {
    return `get(u${this.slot})`;
  }
}

export const W = { create: 3, deactivate: 3, reactivate: 3, patch: 1, delete: 2, get: 2 };

/**
 * Every command over `slots` user names, as one weighted choice: create is the most likely,
 * so most sequences reach the interesting states (deactivated, deleted, re-created) early.
 */
export function commandArbitraries(slots: number): fc.Arbitrary<SlotCommand>[] {
  // The first user name takes most commands, so its states chain; the others interleave.
  const slot =
    slots === 1
      ? fc.constant(0)
      : fc.oneof(
          { weight: 3, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: slots - 1 }) },
        );
  const pick = (weight: number, make: (i: number) => SlotCommand) => ({ weight, arbitrary: slot.map(make) });
  return [
    fc.oneof(
      pick(W.create, (i) => new Create(i)),
      pick(W.deactivate, (i) => new SetActive(i, false)),
      pick(W.reactivate, (i) => new SetActive(i, true)),
      pick(W.patch, (i) => new Rename(i)),
      pick(W.delete, (i) => new Delete(i)),
      pick(W.get, (i) => new Get(i)),
    ),
  ];
}
