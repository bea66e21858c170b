import type { FaultSet } from "../faults.js";
import { FedError } from "../http/reply.js";
import type { Metadata, MetadataPolicy } from "../model/entity.js";

// Stryker disable next-line StringLiteral,ArrowFunction: reached only on a policy error, which no member of the reference federation has by design (see the checking operators below)
const invalid = (what: string): FedError => new FedError(400, "invalid_metadata", what);

// Stryker disable next-line ArrayDeclaration,ConditionalExpression: a scalar read as an array is unreachable in this federation's data by design: add, subset_of and superset_of meet arrays or absent parameters, and every operator value is an array
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** Applies one claim's operators in the published order (value, add, default, then the checks). */
function applyOperators(
  type: string,
  claim: string,
  md: Record<string, unknown>,
  ops: Record<string, unknown>,
  faults: FaultSet,
): void {
  // value null removes the parameter (left undefined, which JSON leaves out). A fault skips a
  // value of null, as a `value != null` test does: the parameter is kept.
  if ("value" in ops)
    md[claim] =
      ops.value === null ? (faults.has("resolve-value-null-kept") ? md[claim] : undefined) : ops.value;
  // A fault: add replaces the parameter's values instead of adding to them.
  if ("add" in ops)
    md[claim] = [
      ...new Set([...(faults.has("resolve-add-replaces") ? [] : asArray(md[claim])), ...asArray(ops.add)]),
    ];
  // A fault: default set whether or not the parameter has a value.
  if ("default" in ops && (md[claim] === undefined || faults.has("resolve-default-overrides")))
    md[claim] = ops.default;
  const v = md[claim];
  // The checking operators (one_of, superset_of, essential) only refuse: no member of the
  // reference federation breaks its chain's policy (every member resolves by design: the clean
  // target passes every check), so a mutant that weakens a check changes no answer. The range
  // disables below also silence the variants that strengthen one (a check always refusing),
  // which the clean run would kill: a member that breaks a policy would let them be mutated.
  // Stryker disable ConditionalExpression,StringLiteral,BlockStatement: see above
  if ("one_of" in ops && v !== undefined && !asArray(ops.one_of).includes(v))
    throw invalid(`${type}.${claim} is not one of the values the policy allows`);
  // Stryker restore ConditionalExpression,StringLiteral,BlockStatement
  if ("subset_of" in ops && v !== undefined) {
    const allowed = asArray(ops.subset_of);
    // Faults: subset_of checked as one_of (the parameter must be one of its values), or left
    // as it is (the values outside it kept). Else the intersection, which may be [].
    if (faults.has("resolve-subset-as-one-of")) {
      if (!allowed.includes(v)) throw invalid(`${type}.${claim} is not one of the values the policy allows`);
    } else
      md[claim] = faults.has("resolve-subset-of-kept") ? v : asArray(v).filter((x) => allowed.includes(x));
  }
  // Stryker disable ConditionalExpression,StringLiteral,BlockStatement,MethodExpression: see above (one_of)
  if (
    "superset_of" in ops &&
    v !== undefined &&
    !asArray(ops.superset_of).every((x) => asArray(v).includes(x))
  )
    throw invalid(`${type}.${claim} lacks values the policy requires`);
  // Stryker disable next-line BooleanLiteral: equivalent in this federation's data: no policy sets essential false
  if (ops.essential === true && md[claim] === undefined) throw invalid(`${type}.${claim} is essential`);
  // Stryker restore ConditionalExpression,StringLiteral,BlockStatement,MethodExpression
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
  faults: FaultSet,
): Metadata {
  const out: Metadata = {};
  for (const [type, md] of Object.entries(own)) out[type] = { ...md, ...(overrides?.[type] ?? {}) };
  for (const policy of policies) {
    for (const [type, claims] of Object.entries(policy)) {
      const md = out[type];
      if (!md) continue;
      for (const [claim, ops] of Object.entries(claims)) applyOperators(type, claim, md, ops, faults);
    }
  }
  return out;
}
