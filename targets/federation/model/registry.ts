import type { Entity } from "./entity.js";
import { insertSorted, lowerBound, removeSorted } from "./sorted.js";

/** A page of identifiers from a sorted list, and the identifier the next page starts at. */
export interface Page {
  readonly ids: readonly string[];
  /** The first identifier after the page that the filter keeps; undefined at the end. */
  readonly next: string | undefined;
}

/**
 * Every entity the target serves, and per superior its Immediate Subordinates, each list kept
 * sorted by Entity Identifier. The identifier is the listing's ordering key: it does not depend
 * on `limit`, it places an entity added later wherever its identifier falls (before or after a
 * walk's position), and a page is found by binary search, so a page costs O(log n + page) and
 * nothing is built per request over the whole list (specs/001 What the service does, Rules 4).
 */
export class Registry {
  private readonly byId = new Map<string, Entity>();
  private readonly children = new Map<string, string[]>();
  /** Every entity, sorted: the collection's order. */
  private readonly everyone: string[] = [];
  /** NumericDate of the last change to any entity (the collection's last_updated). */
  lastChange: number;

  constructor(now: number) {
    this.lastChange = now;
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Entity | undefined {
    return this.byId.get(id);
  }

  /** The Immediate Subordinates of `superior`, sorted (a live view: do not modify). */
  subordinates(superior: string): readonly string[] {
    return this.children.get(superior) ?? [];
  }

  /** Every entity, sorted (a live view: do not modify). */
  all(): readonly string[] {
    return this.everyone;
  }

  /** Adds an entity (its superiors must exist). */
  add(e: Entity, now: number): void {
    if (this.byId.has(e.id)) throw new Error(`entity ${e.id} exists`);
    this.byId.set(e.id, e);
    insertSorted(this.everyone, e.id);
    for (const s of e.superiors) {
      let list = this.children.get(s);
      if (!list) this.children.set(s, (list = []));
      insertSorted(list, e.id);
    }
    this.lastChange = Math.max(this.lastChange, now);
  }

  /**
   * Adds many entities under one superior at start, sorting once (a start with 100,000 members
   * would be quadratic one insert at a time).
   */
  addBulk(entities: readonly Entity[], superior: string): void {
    const list = this.children.get(superior) ?? [];
    for (const e of entities) {
      this.byId.set(e.id, e);
      list.push(e.id);
      this.everyone.push(e.id);
    }
    list.sort();
    this.everyone.sort();
    this.children.set(superior, list);
  }

  /** Removes a leaf; false when there is none by that identifier. */
  remove(id: string, now: number): boolean {
    const e = this.byId.get(id);
    if (!e) return false;
    this.byId.delete(id);
    removeSorted(this.everyone, id);
    for (const s of e.superiors) removeSorted(this.children.get(s) ?? [], id);
    this.lastChange = Math.max(this.lastChange, now);
    return true;
  }

  /** Records a change to an entity that stays (an update). */
  touch(now: number): void {
    this.lastChange = Math.max(this.lastChange, now);
  }

  /** True when `e` lies directly or indirectly below the entity `anchor`. */
  isBelow(e: Entity, anchor: string): boolean {
    const seen = new Set<string>();
    const queue = [...e.superiors];
    while (queue.length > 0) {
      const s = queue.shift() as string;
      if (s === anchor) return true;
      if (seen.has(s)) continue;
      seen.add(s);
      queue.push(...(this.byId.get(s)?.superiors ?? []));
    }
    return false;
  }

  /**
   * Up to `limit` identifiers of `sorted` that `keep` accepts, from the first one at or after
   * `from` (inclusive), and the identifier of the next kept one. Descending walks (a fault) read
   * the list backwards from the last identifier at or before `from`.
   */
  page(
    sorted: readonly string[],
    o: { from?: string | undefined; limit: number; keep: (e: Entity) => boolean; descending?: boolean },
  ): Page {
    const ids: string[] = [];
    const step = o.descending ? -1 : 1;
    let i: number;
    if (o.from === undefined) i = o.descending ? sorted.length - 1 : 0;
    else {
      i = lowerBound(sorted, o.from);
      // Backwards, the walk starts at the last identifier at or before `from`.
      if (o.descending && sorted[i] !== o.from) i -= 1;
    }
    for (; i >= 0 && i < sorted.length; i += step) {
      const id = sorted[i] as string;
      const e = this.byId.get(id);
      if (!e || !o.keep(e)) continue;
      if (ids.length === o.limit) return { ids, next: id };
      ids.push(id);
    }
    return { ids, next: undefined };
  }
}
