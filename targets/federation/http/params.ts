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
      if (++count > LIMITS.maxParameters)
        throw invalidRequest(`more than ${LIMITS.maxParameters} parameters`);
      if (name.length > 64) throw invalidRequest("a parameter name is longer than 64 characters");
      const list = values.get(name) ?? [];
      if (list.length >= LIMITS.maxValuesPerName) {
        throw invalidRequest(`more than ${LIMITS.maxValuesPerName} values of ${name}`);
      }
      // A value past the bound is kept cut one character beyond it: no cursor, identifier or
      // claim of this target is that long, so it is refused as unknown by whoever reads it.
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
    if (list.length > 1) throw invalidRequest(`${name} is given more than once`);
    return list[0];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  names(): string[] {
    return [...this.values.keys()];
  }

  /** The parameters without `names` (client authentication's own parameters). */
  without(names: readonly string[]): Params {
    return new Params(new Map([...this.values].filter(([n]) => !names.includes(n))));
  }

  /**
   * These parameters laid over `under`: a name given here replaces its values there (a fault's
   * reading: the query string merged over a POST body, as frameworks that merge both do).
   */
  over(under: Params): Params {
    return new Params(new Map([...under.values, ...this.values]));
  }

  /** The parameters as a plain object, the last value of a repeated name winning (a fault's reading). */
  lastValues(): Record<string, string> {
    return Object.fromEntries([...this.values].map(([n, v]) => [n, v[v.length - 1] as string]));
  }
}

/** The query parameters of `url`. */
export const queryParams = (url: URL): Params => Params.of(url.searchParams);

/** The parameters of a form POST body (specs/001 Endpoints: Entity collection; public §2 Endpoints). */
export async function formParams(req: Request): Promise<Params> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw invalidRequest("a POST carries its parameters as application/x-www-form-urlencoded");
  }
  const text = await readBoundedBody(req, LIMITS.maxBodyBytes);
  // 400, not 413: the base error table gives invalid_request that status (public-spec-facts §2 Errors).
  if (text === "too-large") throw invalidRequest(`the body exceeds ${LIMITS.maxBodyBytes} bytes`);
  if (text === "not-text") throw invalidRequest("the body is not UTF-8 text");
  return Params.of(new URLSearchParams(text));
}

/** A positive integer `limit`, capped at `upper`; anything else is a bad request. */
export function parseLimit(value: string | undefined, fallback: number, upper: number): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]{1,64}$/.test(value) || Number(value) < 1) {
    throw invalidRequest("limit must be a positive integer");
  }
  return Math.min(Number(value), upper);
}

/** `true` or `false`. */
export function parseBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") throw invalidRequest(`${name} must be true or false`);
  return value === "true";
}

/** A NumericDate: a JSON number of seconds since the epoch (fractions and exponents allowed). */
export function parseNumericDate(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (
    value.length > 40 ||
    !/^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(value) ||
    !Number.isFinite(Number(value))
  ) {
    throw invalidRequest(`${name} must be a NumericDate`);
  }
  return Number(value);
}
