import { describe, expect, it } from "vitest";
import { quote, QUOTE_MAX } from "../../src/engine/quote.js";

/** Runs `f` and returns its result and how long it took. */
function timed<T>(f: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = f();
  return { value, ms: performance.now() - started };
}

describe("quote: the one bounded renderer of target values in findings (design: honesty rule 5)", () => {
  it("renders small values as compact JSON, and undefined as absent", () => {
    expect(quote({ a: 1, b: ["x", null, true] })).toBe('{"a":1,"b":["x",null,true]}');
    expect(quote("plain")).toBe('"plain"');
    expect(quote(null)).toBe("null");
    expect(quote(undefined)).toBe("absent");
    expect(quote(12n)).toBe("12n");
  });

  it("a value nested 100,000 deep gives a short text at once, never a stack overflow", () => {
    let arrays: unknown = 1;
    let objects: unknown = 1;
    for (let i = 0; i < 100_000; i++) {
      arrays = [arrays];
      objects = { a: objects };
    }
    // The way a target's deep value arrives: parsed from text, not built in code.
    const parsed: unknown = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    for (const v of [arrays, objects, parsed]) {
      const { value, ms } = timed(() => quote(v));
      expect(value.length).toBeLessThanOrEqual(QUOTE_MAX);
      expect(value).toContain("…");
      expect(ms).toBeLessThan(50);
    }
    expect(quote(arrays)).toBe("[[[[[[[…]]]]]]]");
  });

  it("a 1,000,000-key object gives at most max characters, reading a few hundred members, not all of them", () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < 1_000_000; i++) big[`k${i}`] = i;
    // Cost is counted in member reads, which no machine load makes flaky: a quote of at most
    // QUOTE_MAX characters has no use for more than about that many members.
    let reads = 0;
    const counted = new Proxy(big, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const value = quote(counted);
    expect(value.length).toBeLessThanOrEqual(QUOTE_MAX);
    expect(value.startsWith('{"k0":0,"k1":1,')).toBe(true);
    expect(value.endsWith("…")).toBe(true);
    expect(reads).toBeLessThan(QUOTE_MAX * 2);
  });

  it("a 10,000,000-element array and a cycle are bounded", () => {
    const long = new Array<number>(10_000_000).fill(7);
    const { value, ms } = timed(() => quote(long));
    expect(value.length).toBeLessThanOrEqual(QUOTE_MAX);
    expect(ms).toBeLessThan(50);
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    cyclic.list = [cyclic];
    expect(quote(cyclic)).toBe('{"name":"loop","self":[cycle],"list":[[cycle]]}');
  });

  it("a 50 MB string costs no more than a short one, and is cut with an ellipsis", () => {
    const huge = Buffer.alloc(50 * 1024 * 1024, "a").toString("latin1");
    const { value, ms } = timed(() => quote(huge));
    expect(value.length).toBe(QUOTE_MAX);
    expect(value.startsWith('"aaaa')).toBe(true);
    expect(value.endsWith("…")).toBe(true);
    expect(ms).toBeLessThan(50);
    // Quotes and control characters are escaped, as in JSON.
    expect(quote('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
  });

  it("a BigInt, a function, a symbol, a throwing getter and a hostile proxy come out as text", () => {
    expect(quote({ n: 2n ** 70n })).toBe('{"n":1180591620717411303424n}');
    expect(quote([() => 1, Symbol("s")])).toBe("[[function],[symbol]]");
    const getter = {
      get boom(): never {
        throw new Error("no");
      },
    };
    expect(() => quote(getter)).not.toThrow();
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    expect(() => quote(proxy)).not.toThrow();
    expect(quote(proxy)).toContain("unreadable");
  });

  it("honours a smaller or larger max, and never returns more", () => {
    const v = { list: Array.from({ length: 1000 }, (_, i) => i) };
    for (const max of [1, 10, 80, 300, 2000]) expect(quote(v, max).length).toBeLessThanOrEqual(max);
    expect(quote([1, 2, 3], 5)).toBe("[1,2…");
    expect(quote("abc", 10)).toBe('"abc"');
  });
});
