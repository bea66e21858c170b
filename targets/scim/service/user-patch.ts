import type { FaultSet } from "../faults.js";
import { compileFilter, type FilterSchema } from "./filter-eval.js";
import { EMAIL_SUB } from "./filter-schemas.js";
import { expandPathless, type PatchOperation, type PatchPath } from "./patch-op.js";
import { badRequest } from "./scim-error.js";
import {
  checkEmails,
  cloneFields,
  ENTERPRISE_URN,
  NAME_PARTS,
  parseEmail,
  parseEmails,
  parseEnterprise,
  parseName,
  USER_URN,
  type Email,
  type UserFields,
} from "./user-model.js";
import { asBoolean, asNonEmpty, asString } from "./values.js";

const ENTERPRISE = ENTERPRISE_URN.toLowerCase();
const EMAIL_SCHEMA: FilterSchema<Record<string, unknown>> = { urns: [], leaves: EMAIL_SUB, multi: {} };

/** Attribute names of the enterprise extension (RFC 7643 §4.3), for their canonical case. */
const ENTERPRISE_ATTRS = [
  "employeeNumber",
  "costCenter",
  "organization",
  "division",
  "department",
  "manager",
];

const readOnly = (attr: string) => badRequest("mutability", `${attr} is read-only`);
const noFilter = (p: PatchPath): void => {
  if (p.filter !== undefined) throw badRequest("invalidPath", `${p.attr} is not multi-valued`);
};

/**
 * Applies a PatchOp to a user (RFC 7644 §3.5.2; specs/002 area C: PATCH updates,
 * deactivates and reactivates). Works on a copy, so a failing operation changes nothing
 * (RFC 7644 §3.5.2: operations are atomic). Paths: active, userName, displayName,
 * externalId, name and its parts, emails (with value filters), the enterprise extension.
 */
export function patchUser(current: UserFields, ops: readonly PatchOperation[], faults: FaultSet): UserFields {
  // patch-drops-attributes: a request with a replace starts from a blank user, as a PUT would,
  // keeping only what a PUT could not do without (userName) and the activation state.
  const asPut = faults.has("patch-drops-attributes") && ops.some((op) => op.op === "replace");
  const draft = asPut
    ? { userName: current.userName, emails: [], active: current.active }
    : cloneFields(current);
  for (const op of ops.flatMap(expandPathless)) applyOne(draft, op, faults);
  checkEmails(draft.emails);
  return draft;
}

function applyOne(u: UserFields, op: PatchOperation, faults: FaultSet): void {
  const p = op.path;
  if (p === undefined) return;
  if (
    p.urn === ENTERPRISE ||
    (p.urn === "urn:ietf:params:scim:schemas:extension:enterprise:2.0" && p.attr === "user")
  ) {
    return applyEnterprise(u, op, p);
  }
  if (p.urn !== undefined && p.urn !== USER_URN.toLowerCase())
    throw badRequest("invalidPath", "unknown schema in path");
  const remove = op.op === "remove";
  switch (p.attr) {
    case "active": {
      noFilter(p);
      if (remove) throw badRequest("mutability", "active can be set to true or false, not removed");
      const active = asBoolean(op.value, "active");
      if (active && !u.active && faults.has("reactivation-refused")) {
        throw badRequest("mutability", "a deactivated user cannot be reactivated");
      }
      if (!active && u.active && faults.has("deactivation-refused")) {
        throw badRequest("mutability", "an active user cannot be deactivated");
      }
      u.active = active;
      return;
    }
    case "username":
      noFilter(p);
      if (remove) throw badRequest("mutability", "userName is required and cannot be removed");
      u.userName = asNonEmpty(op.value, "userName");
      return;
    case "displayname":
    case "externalid": {
      noFilter(p);
      const key = p.attr === "displayname" ? "displayName" : "externalId";
      // Under patch-displayname-ignored the operation is accepted and changes nothing.
      if (key === "displayName" && faults.has("patch-displayname-ignored")) return;
      if (remove || op.value === null) delete u[key];
      else u[key] = asString(op.value, key);
      return;
    }
    case "name":
      return applyName(u, op, p);
    case "emails":
      return applyEmails(u, op, p);
    case "id":
    case "meta":
    case "groups":
    case "schemas":
      throw readOnly(p.attr);
    default:
      throw badRequest("invalidPath", `attribute ${p.attr.slice(0, 80)} cannot be patched`);
  }
}

function applyName(u: UserFields, op: PatchOperation, p: PatchPath): void {
  noFilter(p);
  if (p.sub === undefined) {
    if (op.op === "remove" || op.value === null) delete u.name;
    // Sub-attributes not given are left unchanged (RFC 7644 §3.5.2.1, §3.5.2.3).
    else u.name = { ...u.name, ...parseName(op.value) };
    return;
  }
  const part = NAME_PARTS[p.sub as keyof typeof NAME_PARTS];
  if (part === undefined) throw badRequest("invalidPath", `name has no sub-attribute ${p.sub.slice(0, 80)}`);
  const name = { ...u.name };
  if (op.op === "remove" || op.value === null) delete name[part];
  else name[part] = asString(op.value, `name.${part}`);
  u.name = name;
}

/** A primary email added or set makes the others non-primary (RFC 7643 §2.4). */
function keepOnePrimary(emails: Email[], chosen: ReadonlySet<Email>): void {
  if (![...chosen].some((e) => e.primary === true)) return;
  for (const e of emails) if (!chosen.has(e) && e.primary === true) e.primary = false;
}

function applyEmails(u: UserFields, op: PatchOperation, p: PatchPath): void {
  if (p.filter === undefined && p.sub === undefined) {
    if (op.op === "remove") u.emails = [];
    else if (op.op === "replace") u.emails = parseEmails(op.value);
    else {
      const added = parseEmails(op.value);
      keepOnePrimary(u.emails, new Set(added));
      u.emails.push(...added);
    }
    return;
  }
  const match = p.filter ? compileFilter(p.filter, EMAIL_SCHEMA) : () => true;
  const targets = u.emails.filter((e) => match(e as unknown as Record<string, unknown>));
  if (op.op === "remove") {
    if (p.sub === undefined || p.sub === "value") u.emails = u.emails.filter((e) => !targets.includes(e));
    else for (const e of targets) delete e[subKey(p.sub)];
    return;
  }
  if (targets.length === 0) throw badRequest("noTarget", "no email matches the path");
  if (p.sub === undefined) {
    const next = parseEmail(op.value);
    const replaced = new Set<Email>();
    u.emails = u.emails.map((e) => {
      if (!targets.includes(e)) return e;
      const copy = { ...next };
      replaced.add(copy);
      return copy;
    });
    keepOnePrimary(u.emails, replaced);
    return;
  }
  const key = subKey(p.sub);
  for (const e of targets) {
    if (key === "primary") e.primary = asBoolean(op.value, "emails.primary");
    else if (key === "value") e.value = asNonEmpty(op.value, "emails.value");
    else e[key] = asString(op.value, `emails.${key}`);
  }
  keepOnePrimary(u.emails, new Set(targets));
}

function subKey(sub: string): "value" | "type" | "primary" | "display" {
  if (sub === "value" || sub === "type" || sub === "primary" || sub === "display") return sub;
  throw badRequest("invalidPath", `emails has no sub-attribute ${sub.slice(0, 80)}`);
}

/** Enterprise extension attributes: set or remove members of the extension object. */
function applyEnterprise(u: UserFields, op: PatchOperation, p: PatchPath): void {
  noFilter(p);
  const whole = p.urn !== ENTERPRISE;
  if (whole) {
    if (op.op === "remove" || op.value === null) delete u.enterprise;
    else
      u.enterprise = parseEnterprise(
        op.op === "add" ? { ...u.enterprise, ...(op.value as object) } : op.value,
      );
    return;
  }
  const ext: Record<string, unknown> = { ...u.enterprise };
  const existing =
    Object.keys(ext).find((k) => k.toLowerCase() === p.attr) ??
    ENTERPRISE_ATTRS.find((k) => k.toLowerCase() === p.attr) ??
    p.attr;
  if (p.sub !== undefined) {
    const inner =
      typeof ext[existing] === "object" && ext[existing] !== null ? { ...(ext[existing] as object) } : {};
    if (op.op === "remove") delete (inner as Record<string, unknown>)[p.sub];
    else (inner as Record<string, unknown>)[p.sub] = op.value;
    ext[existing] = inner;
  } else if (op.op === "remove") delete ext[existing];
  else ext[existing] = op.value;
  u.enterprise = parseEnterprise(ext);
}
