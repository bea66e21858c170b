import { FedError } from "../http/reply.js";
import type { Metadata, MetadataPolicy } from "../model/entity.js";

const invalid = (what: string): FedError => new FedError(400, "invalid_metadata", what);

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** Mistakes the faults make in applying a policy. */
export interface ResolveOptions {
  readonly subsetAsOneOf?: boolean;
}

/** Applies one claim's operators in the published order (value, add, default, then the checks). */
function applyOperators(
  type: string,
  claim: string,
  md: Record<string, unknown>,
  ops: Record<string, unknown>,
  o: ResolveOptions,
): void {
  if ("value" in ops) {
    if (ops.value === null) delete md[claim];
    else md[claim] = ops.value;
  }
  if ("add" in ops) md[claim] = [...new Set([...asArray(md[claim]), ...asArray(ops.add)])];
  if ("default" in ops && md[claim] === undefined) md[claim] = ops.default;
  const v = md[claim];
  if ("one_of" in ops && v !== undefined && !asArray(ops.one_of).includes(v)) {
    throw invalid(`${type}.${claim} is not one of the values the policy allows`);
  }
  // A fault: subset_of checked as one_of (the parameter must be one of its values).
  if ("subset_of" in ops && v !== undefined && o.subsetAsOneOf && !asArray(ops.subset_of).includes(v)) {
    throw invalid(`${type}.${claim} is not one of the values the policy allows`);
  }
  if ("subset_of" in ops && v !== undefined && !o.subsetAsOneOf) {
    // The intersection, which may be [] (Metadata Policy, subset_of).
    md[claim] = asArray(v).filter((x) => asArray(ops.subset_of).includes(x));
  }
  if (
    "superset_of" in ops &&
    v !== undefined &&
    !asArray(ops.superset_of).every((x) => asArray(v).includes(x))
  ) {
    throw invalid(`${type}.${claim} lacks values the policy requires`);
  }
  if (ops.essential === true && md[claim] === undefined) throw invalid(`${type}.${claim} is essential`);
}

/**
 * Resolved metadata (OpenID Federation 1.0 metadata policy, minimal): the subordinate's own
 * metadata, overridden claim by claim by its superior's `metadata`, then each metadata_policy
 * of the chain from the Trust Anchor down. The policies of this federation never conflict, so
 * applying them one after another gives what merging them first would.
 */
export function resolveMetadata(
  own: Metadata,
  overrides: Metadata | undefined,
  policies: readonly MetadataPolicy[],
  o: ResolveOptions = {},
): Metadata {
  const out: Metadata = {};
  for (const [type, md] of Object.entries(own)) out[type] = { ...md, ...(overrides?.[type] ?? {}) };
  for (const policy of policies) {
    for (const [type, claims] of Object.entries(policy)) {
      const md = out[type];
      if (!md) continue;
      for (const [claim, ops] of Object.entries(claims)) applyOperators(type, claim, md, ops, o);
    }
  }
  return out;
}
