import { randomBytes } from "node:crypto";
import { LIMITS } from "../limits.js";
import type { Entity } from "../model/entity.js";
import type { Registry } from "../model/registry.js";
import { lowerBound } from "../model/sorted.js";

/** A page of a faulty pager: identifiers, and the key (cursor content) of the next page. */
export interface FaultPage {
  readonly ids: readonly string[];
  readonly nextKey: string | undefined;
}

/**
 * xl-offset-cursor: the cursor holds the offset of the next page among the entries the filter
 * keeps (`#<offset>`): a walk shifts when entries are added or removed before its position.
 */
export function offsetPage(
  registry: Registry,
  sorted: readonly string[],
  o: { fromKey: string | undefined; limit: number; keep: (e: Entity) => boolean },
): FaultPage | "unknown" {
  let offset = 0;
  if (o.fromKey !== undefined) {
    if (!/^#[0-9]{1,9}$/.test(o.fromKey)) return "unknown";
    offset = Number(o.fromKey.slice(1));
  }
  const ids: string[] = [];
  let seen = 0;
  for (const id of sorted) {
    const e = registry.get(id);
    if (!e || !o.keep(e)) continue;
    if (seen++ < offset) continue;
    if (ids.length === o.limit) return { ids, nextKey: `#${offset + o.limit}` };
    ids.push(id);
  }
  return { ids, nextKey: undefined };
}

/**
 * xl-snapshot-cursor: the first page copies the list, and the walk goes on over that copy
 * (`<snapshot>|<next id>`): subordinates added later never appear, removed ones still do.
 */
export class Snapshots {
  private readonly kept = new Map<string, readonly string[]>();

  page(
    registry: Registry,
    sorted: readonly string[],
    o: { fromKey: string | undefined; limit: number; keep: (e: Entity) => boolean },
  ): FaultPage | "unknown" {
    let snapshot: readonly string[];
    let id: string;
    let start = 0;
    if (o.fromKey === undefined) {
      id = randomBytes(8).toString("hex");
      snapshot = [...sorted];
      if (this.kept.size >= LIMITS.maxSnapshots) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(id, snapshot);
    } else {
      const bar = o.fromKey.indexOf("|");
      id = o.fromKey.slice(0, bar);
      const found = this.kept.get(id);
      if (bar < 0 || !found) return "unknown";
      snapshot = found;
      start = lowerBound(snapshot, o.fromKey.slice(bar + 1));
    }
    const ids: string[] = [];
    for (let i = start; i < snapshot.length; i++) {
      const sid = snapshot[i] as string;
      const e = registry.get(sid);
      if (e && !o.keep(e)) continue;
      if (ids.length === o.limit) return { ids, nextKey: `${id}|${sid}` };
      ids.push(sid);
    }
    return { ids, nextKey: undefined };
  }
}
