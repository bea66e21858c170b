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

const SUB = /^\.([A-Za-z$][\w$-]*)$/;

/** Parses a PATCH path; anything else is 400 invalidPath. */
export function parsePatchPath(text: string): PatchPath {
  try {
    const open = text.indexOf("[");
    if (open < 0) {
      const { urn, path } = parseAttrPath(text.trim());
      const [attr = "", sub] = path.split(".");
      return { urn, attr, filter: undefined, sub };
    }
    const close = text.lastIndexOf("]");
    const rest = text.slice(close + 1);
    const subMatch = SUB.exec(rest);
    if (close < open || (rest !== "" && subMatch === null)) throw new FilterError("bad value path");
    const { urn, path } = parseAttrPath(text.slice(0, open).trim());
    if (path.includes(".")) throw new FilterError("a value path selects a top-level attribute");
    return {
      urn,
      attr: path,
      filter: parseFilter(text.slice(open + 1, close)),
      sub: subMatch?.[1]?.toLowerCase(),
    };
  } catch (err) {
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
  const schemas = m.get("schemas");
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_URN)) {
    throw badRequest("invalidSyntax", `schemas must include ${PATCH_URN}`);
  }
  const ops = m.get("operations");
  if (!Array.isArray(ops) || ops.length === 0)
    throw badRequest("invalidSyntax", "Operations must be a non-empty array");
  if (ops.length > LIMITS.maxPatchOperations) {
    throw badRequest("invalidSyntax", `at most ${LIMITS.maxPatchOperations} operations per request`);
  }
  return ops.map((raw): PatchOperation => {
    if (!isObject(raw)) throw badRequest("invalidSyntax", "each operation must be an object");
    const o = lowerKeys(raw);
    const op = typeof o.get("op") === "string" ? (o.get("op") as string).toLowerCase() : "";
    if (op !== "add" && op !== "replace" && op !== "remove") {
      throw badRequest("invalidSyntax", "op must be add, replace or remove");
    }
    const path = o.get("path");
    if (path !== undefined && (typeof path !== "string" || path.trim() === "")) {
      throw badRequest("invalidPath", "path must be a non-empty string");
    }
    if (op !== "remove" && !o.has("value")) throw badRequest("invalidValue", `op ${op} needs a value`);
    return { op, path: path === undefined ? undefined : parsePatchPath(path), value: o.get("value") };
  });
}

/**
 * Expands an operation without a path (RFC 7644 §3.5.2.1, §3.5.2.3): its value is an
 * object whose members are attribute paths (some clients write `name.givenName` there).
 * `remove` needs a path: 400 noTarget.
 */
export function expandPathless(op: PatchOperation): PatchOperation[] {
  if (op.path !== undefined) return [op];
  if (op.op === "remove") throw badRequest("noTarget", "remove needs a path");
  if (!isObject(op.value))
    throw badRequest("invalidValue", `op ${op.op} without a path needs an object value`);
  return (
    Object.entries(op.value)
      // Read-only members a client echoes back from a GET are not changes: skip them.
      .filter(([k]) => !["schemas", "id", "meta"].includes(k.toLowerCase()))
      .map(([k, value]) => ({ op: op.op, path: parsePatchPath(k), value }))
  );
}
