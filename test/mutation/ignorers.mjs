// StrykerJS ignore-plugins for `npm run mutation`: what a mutation of a reference target must
// not count, because no protocol run can or should observe it.
import { declareValuePlugin, PluginKind } from "@stryker-mutator/api/plugin";

/**
 * A fault switch: `faults.has("id")` or `<x>.faults.has("id")`. Every reference target reads
 * its faults this way; a mutation run starts the target with none.
 * @param {any} node
 */
export function isFaultTest(node) {
  if (node?.type !== "CallExpression") return false;
  const callee = node.callee;
  if (callee?.type !== "MemberExpression" || callee.property?.name !== "has") return false;
  const obj = callee.object;
  return (
    (obj?.type === "Identifier" && obj.name === "faults") ||
    (obj?.type === "MemberExpression" && obj.property?.name === "faults")
  );
}

/**
 * True when `node` can only be true while a fault is on: the switch itself, or a conjunction
 * with the switch as one of its terms.
 * @param {any} node
 */
function onlyUnderFault(node) {
  if (isFaultTest(node)) return true;
  return (
    node?.type === "LogicalExpression" &&
    node.operator === "&&" &&
    (onlyUnderFault(node.left) || onlyUnderFault(node.right))
  );
}

/** @param {any} node */
function negatedFault(node) {
  return node?.type === "UnaryExpression" && node.operator === "!" && isFaultTest(node.argument);
}

/**
 * Why a node belongs to the fault machinery, or undefined. Ignored: the switch, a conjunction
 * with it (false whenever the fault is off, so "false" would be an equivalent mutant), and the
 * branch that runs only while a fault is on (never reached in a clean run: no coverage).
 * A guard such as `!faults.has(x) && cond` is protocol logic and stays mutated.
 * @param {any} path a Babel NodePath
 * @returns {string | undefined}
 */
export function faultReason(path) {
  const node = path.node;
  if (onlyUnderFault(node)) return "fault switch of the reference target (a mutation run has no faults on)";
  const parent = path.parentPath?.node;
  if (parent?.type === "IfStatement" || parent?.type === "ConditionalExpression") {
    if (path.key === "consequent" && onlyUnderFault(parent.test))
      return "code a reference target runs only while a fault is on";
    if (path.key === "alternate" && negatedFault(parent.test))
      return "code a reference target runs only while a fault is on";
  }
  if (
    parent?.type === "LogicalExpression" &&
    path.key === "right" &&
    parent.operator === "&&" &&
    onlyUnderFault(parent.left)
  )
    return "code a reference target runs only while a fault is on";
  return undefined;
}

/**
 * Display text: a string of three words or more (an error_description, a page's text, a
 * display name) with no `=`, `"` or `<` in it. The requirements make such texts optional or free, so no check can tell
 * one sentence from another, or from an empty one.
 * @param {any} path
 * @returns {string | undefined}
 */
export function proseReason(path) {
  const node = path.node;
  const text =
    node?.type === "StringLiteral"
      ? node.value
      : node?.type === "TemplateLiteral"
        ? node.quasis.map((q) => q.value.cooked ?? "").join("x")
        : undefined;
  // A header value or a markup template (`error="…"`, `<a href="…">`) is not prose.
  if (text === undefined || /[="<]/.test(text)) return undefined;
  return (text.match(/ \S/g) ?? []).length >= 2 ? "display text (three words or more)" : undefined;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, "fault-switch", { shouldIgnore: faultReason }),
  declareValuePlugin(PluginKind.Ignore, "display-text", { shouldIgnore: proseReason }),
];
