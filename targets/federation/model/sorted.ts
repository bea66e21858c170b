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
  if (sorted[i] === key) return false;
  sorted.splice(i, 0, key);
  return true;
}

/** Removes `key` from `sorted` in place; true when it was there. */
export function removeSorted(sorted: string[], key: string): boolean {
  const i = lowerBound(sorted, key);
  if (sorted[i] !== key) return false;
  sorted.splice(i, 1);
  return true;
}
