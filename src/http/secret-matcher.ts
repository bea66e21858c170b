/**
 * Finds every occurrence of many secrets in a text in one pass (Aho-Corasick over a short key
 * of each secret, then a direct comparison of the whole secret), so redaction costs about the
 * same for one secret or a thousand, and a secret of any size is found. No regular expression
 * is built from secrets: such a pattern has a size limit, and the error that reports it
 * carries the pattern, that is every secret, in clear.
 */

/** Characters of a secret the automaton indexes; the rest is compared directly. */
const KEY = 32;

/** A fixed set of keys and one scan over a text that reports where each key ends. */
class KeyAutomaton {
  private readonly next = new Map<number, number>();
  private readonly fail: number[] = [0];
  /** Index of the key that ends at a node, or -1. */
  private readonly keyAt: number[] = [-1];
  /** The nearest node on the fail chain where a key ends (0: none). */
  private readonly dict: number[] = [0];
  readonly depth: number[] = [0];

  constructor(readonly keys: readonly string[]) {
    keys.forEach((k, ki) => {
      let node = 0;
      for (let i = 0; i < k.length; i++) {
        const edge = node * 65536 + k.charCodeAt(i);
        let to = this.next.get(edge);
        if (to === undefined) {
          to = this.fail.length;
          this.fail.push(0);
          this.keyAt.push(-1);
          this.dict.push(0);
          this.depth.push(i + 1);
          this.next.set(edge, to);
        }
        node = to;
      }
      this.keyAt[node] = ki;
    });
    // Breadth first: a node's fail link is known before its children's.
    const children = new Map<number, [number, number][]>();
    for (const [edge, to] of this.next) {
      const from = Math.floor(edge / 65536);
      let list = children.get(from);
      if (!list) children.set(from, (list = []));
      list.push([edge % 65536, to]);
    }
    const queue: number[] = [];
    for (const [, to] of children.get(0) ?? []) queue.push(to);
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      for (const [c, to] of children.get(node) ?? []) {
        let f = this.fail[node]!;
        while (f !== 0 && !this.next.has(f * 65536 + c)) f = this.fail[f]!;
        const target = this.next.get(f * 65536 + c);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        const ft = this.fail[to]!;
        this.dict[to] = this.keyAt[ft]! >= 0 ? ft : this.dict[ft]!;
        queue.push(to);
      }
    }
  }

  /** Calls `found(key, end)` for every key occurrence ending at `end` (exclusive); returns the final node. */
  scan(text: string, from: number, found: (key: number, end: number) => void): number {
    let node = 0;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let to = this.next.get(node * 65536 + c);
      while (to === undefined && node !== 0) {
        node = this.fail[node]!;
        to = this.next.get(node * 65536 + c);
      }
      node = to ?? 0;
      for (let t = this.keyAt[node]! >= 0 ? node : this.dict[node]!; t !== 0; t = this.dict[t]!)
        found(this.keyAt[t]!, i + 1);
    }
    return node;
  }
}

export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

/** The text was too costly to search (a pathological secret and text); the caller withholds it. */
export class MatchBudgetExceeded extends Error {}

/** An immutable index of secrets; build a new one when the set changes. */
export class SecretMatcher {
  private readonly bySuffix: KeyAutomaton;
  /** For each suffix key, the secrets that end with it, longest first. */
  private readonly suffixGroups: { value: string; name: string }[][];
  private byPrefix: { automaton: KeyAutomaton; groups: { value: string; name: string }[][] } | undefined;
  private readonly maxLength: number;

  constructor(private readonly secrets: ReadonlyMap<string, string>) {
    const groups = new Map<string, { value: string; name: string }[]>();
    let max = 0;
    for (const [value, name] of secrets) {
      const key = value.slice(-KEY);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push({ value, name });
      max = Math.max(max, value.length);
    }
    this.maxLength = max;
    for (const g of groups.values()) g.sort((a, b) => b.value.length - a.value.length);
    this.bySuffix = new KeyAutomaton([...groups.keys()]);
    this.suffixGroups = [...groups.values()];
  }

  /**
   * Every span of `text` a secret covers, merged where they overlap (so no part of a secret is
   * left beside another). With `cutEnd`, the text is the start of something longer: a secret
   * whose beginning stands at the end of the text is covered too.
   */
  spans(text: string, cutEnd = false): SecretSpan[] {
    const found: SecretSpan[] = [];
    // Comparisons beyond the automaton's linear scan are bounded; past that the text is withheld.
    let budget = 16 * text.length + 4_000_000;
    const spend = (n: number): void => {
      budget -= n;
      if (budget < 0) throw new MatchBudgetExceeded("redaction work bound reached");
    };
    let last: SecretSpan | undefined;
    this.bySuffix.scan(text, 0, (key, end) => {
      for (const s of this.suffixGroups[key]!) {
        const start = end - s.value.length;
        if (start < 0) continue;
        if (last && last.start <= start && last.end >= end) return;
        if (s.value.length > KEY) {
          spend(s.value.length);
          if (!text.startsWith(s.value, start)) continue;
        }
        found.push((last = { start, end, name: s.name }));
        return;
      }
    });
    if (cutEnd) this.tail(text, found, spend);
    return merge(found);
  }

  /** Covers a secret's beginning that stands at the very end of a cut text. */
  private tail(text: string, found: SecretSpan[], spend: (n: number) => void): void {
    if (!this.byPrefix) {
      const groups = new Map<string, { value: string; name: string }[]>();
      for (const [value, name] of this.secrets) {
        const key = value.slice(0, KEY);
        let g = groups.get(key);
        if (!g) groups.set(key, (g = []));
        g.push({ value, name });
      }
      this.byPrefix = { automaton: new KeyAutomaton([...groups.keys()]), groups: [...groups.values()] };
    }
    const { automaton, groups } = this.byPrefix;
    const from = Math.max(0, text.length - this.maxLength);
    const n = text.length;
    const node = automaton.scan(text, from, (key, end) => {
      const start = end - automaton.keys[key]!.length;
      for (const s of groups[key]!) {
        if (start + s.value.length <= n) continue;
        spend(n - start);
        if (s.value.startsWith(text.slice(start))) {
          found.push({ start, end: n, name: s.name });
          return;
        }
      }
    });
    // The text ends inside a key: its last characters begin a secret.
    const d = automaton.depth[node] ?? 0;
    if (d >= 4) {
      const start = n - d;
      const owner = groups.find((g) => g.some((s) => s.value.startsWith(text.slice(start))));
      found.push({ start, end: n, name: owner?.[0]?.name ?? "REDACTED" });
    }
  }
}

function merge(spans: SecretSpan[]): SecretSpan[] {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const s of spans) {
    const top = out[out.length - 1];
    if (top && s.start < top.end) {
      if (s.end > top.end) out[out.length - 1] = { ...top, end: s.end };
    } else out.push(s);
  }
  return out;
}
