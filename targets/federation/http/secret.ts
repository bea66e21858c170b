import { timingSafeEqual } from "node:crypto";

/** Compares two secrets in constant time (for equal lengths). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: test plumbing: compares only the change hook's bearer token, which the suite always sends right
  return x.length === y.length && timingSafeEqual(x, y);
}
