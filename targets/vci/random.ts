import { randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/** A random opaque value: `bytes` random bytes, base64url. */
export const randomId = (bytes = 32): string => randomBytes(bytes).toString("base64url");

/** A random string of `length` decimal digits (a transaction code). */
export const randomDigits = (length: number): string =>
  Array.from({ length }, () => String(randomInt(10))).join("");

/** Compares two secrets in constant time (for equal lengths). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
