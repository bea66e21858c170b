/** Types of ignorers.mjs (a plain module, so that Stryker's worker processes can load it). */
export interface BabelPathLike {
  readonly node: unknown;
  readonly key?: string | number | null;
  readonly parentPath?: { readonly node: unknown } | null;
}
export function isFaultTest(node: unknown): boolean;
export function faultReason(path: BabelPathLike): string | undefined;
export function proseReason(path: BabelPathLike): string | undefined;
export const strykerPlugins: readonly unknown[];
