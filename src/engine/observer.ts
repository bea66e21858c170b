import type { CheckResult, Finding } from "./check.js";
import type { Exchange } from "../http/exchange.js";
import type { Outcome } from "./verdict.js";
import { prefix } from "../http/client.js";
import { inferKind, type FindingKind } from "./finding-kind.js";

/** One response of the run as an observer sees it: the whole message, before only its start is kept. */
export interface ObservedExchange {
  /** The check that made the request. */
  readonly check: string;
  readonly label?: string | undefined;
  /** What the check said of the request (`attack`, `burst`): observers leave out what they do not apply to. */
  readonly tags: readonly string[];
  readonly method: string;
  readonly url: URL;
  /** Request header names in lower case. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly status: number;
  /** Response header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  header(name: string): string | undefined;
  /** The body as received (up to the response size cap). */
  readonly text: string;
  /** The body parsed as JSON (bounded), or undefined with `jsonError` set. */
  readonly json: unknown;
  readonly jsonError: string | undefined;
}

/** What is wrong with one exchange. */
export interface ObservedViolation {
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /** How bad; read from `expected` and `actual` (and the exchange's status) when not given. */
  readonly kind?: FindingKind;
}

/**
 * A requirement about every exchange of a kind ("every successful response carries no-store",
 * "no error body leaks a stack trace"), judged on every exchange of the run it applies to,
 * across checks, rather than by one probe. It appears in the report as a check of its own.
 */
export interface ObserverDefinition<P = unknown> {
  /** Stable id, shown as the check id (`SCIM-OBSERVE-MEDIA-TYPE`). */
  readonly id: string;
  /** The rule, stated as a sentence. */
  readonly title: string;
  /** The requirement it decides. */
  readonly requirement: string;
  /** Whether the rule speaks of this exchange. */
  applies(ex: ObservedExchange, profile: P): boolean;
  /** `undefined` when the exchange meets the rule; otherwise what is wrong. */
  judge(ex: ObservedExchange, profile: P): ObservedViolation | undefined;
  /**
   * Why the rule cannot apply to a target with this profile (a push rule for a Receiver that
   * polls), or `undefined`. A run that saw no exchange of the kind then skips the requirement as
   * `not-offered` with this reason, rather than as not observed. An exchange it does see is
   * still judged.
   */
  notApplicable?(profile: P): string | undefined;
}

export function defineObserver<P>(o: ObserverDefinition<P>): ObserverDefinition<P> {
  return o;
}

/** What one check's exchanges showed one observer; travels with the check's result. */
export interface Observation {
  readonly observer: string;
  readonly requirement: string;
  /** Exchanges the rule applied to. */
  readonly seen: number;
  readonly violations: number;
  /** The first violating exchange of the check (an id into the check's exchanges). */
  readonly first?: ObservedViolation & { readonly exchange: number };
  /** The observer itself failed (a harness fault): the requirement cannot be decided. */
  readonly error?: string;
}

/** Collects one check's observations; `see` is given every response the check's client receives. */
export class ObservationLog {
  private readonly rows: {
    observer: string;
    requirement: string;
    seen: number;
    violations: number;
    first?: ObservedViolation & { exchange: number };
    error?: string;
  }[];

  constructor(
    private readonly observers: readonly ObserverDefinition[],
    private readonly profile: unknown,
  ) {
    this.rows = observers.map((o) => ({
      observer: o.id,
      requirement: o.requirement,
      seen: 0,
      violations: 0,
    }));
  }

  see(ex: ObservedExchange, exchangeId: number): void {
    this.observers.forEach((o, i) => {
      const row = this.rows[i]!;
      if (row.error !== undefined) return;
      try {
        if (!o.applies(ex, this.profile)) return;
        row.seen++;
        const v = o.judge(ex, this.profile);
        if (v === undefined) return;
        row.violations++;
        row.first ??= {
          exchange: exchangeId,
          kind: v.kind ?? inferKind(v, ex.status),
          message: bounded(v.message),
          ...(v.expected !== undefined ? { expected: bounded(v.expected) } : {}),
          ...(v.actual !== undefined ? { actual: bounded(v.actual) } : {}),
        };
      } catch (e) {
        row.error = e instanceof Error ? e.message : String(e);
      }
    });
  }

  /** Exchange ids the observations cite, so the evidence keeps them whole. */
  cited(): number[] {
    return this.rows.flatMap((r) => (r.first ? [r.first.exchange] : []));
  }

  /** The observations, their texts passed through `text` (redaction). */
  observations(text: (s: string) => string): Observation[] {
    return this.rows.map((r) => ({
      observer: r.observer,
      requirement: r.requirement,
      seen: r.seen,
      violations: r.violations,
      ...(r.first
        ? {
            first: {
              exchange: r.first.exchange,
              ...(r.first.kind !== undefined ? { kind: r.first.kind } : {}),
              message: text(r.first.message),
              ...(r.first.expected !== undefined ? { expected: text(r.first.expected) } : {}),
              ...(r.first.actual !== undefined ? { actual: text(r.first.actual) } : {}),
            },
          }
        : {}),
      ...(r.error !== undefined ? { error: text(r.error) } : {}),
    }));
  }
}

/** What an observer says of a target's message is kept to a bounded copy. */
const TEXT_CAP = 4000;
function bounded(t: string): string {
  return t.length <= TEXT_CAP
    ? prefix(t, TEXT_CAP)
    : `${prefix(t, TEXT_CAP)}… [cut at ${TEXT_CAP} characters]`;
}

export const OBSERVER_SECTION = "Every exchange of the run (observers)";

/**
 * Decides each observer's requirement over the run: violated when any exchange of any check
 * broke it (the earliest one is the evidence), met when it applied to at least one exchange and
 * the run saw every check through, otherwise a skip saying why.
 */
export function observerResults(
  suite: string,
  observers: readonly Pick<ObserverDefinition, "id" | "title" | "requirement" | "notApplicable">[],
  checks: readonly CheckResult[],
  o: { readonly complete: boolean; readonly profile?: unknown },
): CheckResult[] {
  return observers.map((obs) => {
    let seen = 0;
    let violations = 0;
    const inChecks = new Set<string>();
    const violatedIn: string[] = [];
    const errors: string[] = [];
    let first:
      { check: CheckResult; v: NonNullable<Observation["first"]>; ex: Exchange | undefined } | undefined;
    for (const r of checks) {
      if (r.suite !== suite) continue;
      const row = r.observations?.find((x) => x.observer === obs.id);
      if (!row) continue;
      if (row.error !== undefined) errors.push(`${r.check}: ${row.error}`);
      if (row.seen > 0) inChecks.add(r.check);
      seen += row.seen;
      violations += row.violations;
      if (!row.first) continue;
      violatedIn.push(r.check);
      const ex = r.exchanges.find((e) => e.id === row.first!.exchange);
      if (
        first === undefined ||
        (ex !== undefined && (first.ex === undefined || ex.startedAt < first.ex.startedAt))
      ) {
        first = { check: r, v: row.first, ex };
      }
    }
    let outcome: Outcome;
    const findings: Finding[] = [];
    const exchanges: Exchange[] = [];
    if (first) {
      outcome = "violated";
      if (first.ex)
        exchanges.push({ ...first.ex, id: 0, label: `${first.check.check}: ${first.ex.label ?? "request"}` });
      const where =
        violatedIn.length > 1
          ? `; also in ${violatedIn
              .filter((c) => c !== first!.check.check)
              .slice(0, 8)
              .join(", ")}`
          : "";
      findings.push({
        requirements: [obs.requirement],
        outcome: "violated",
        message: `${first.v.message} (in check ${first.check.check}; ${violations} of ${seen} exchanges the rule applies to violate it${where})`,
        ...(first.v.expected !== undefined ? { expected: first.v.expected } : {}),
        ...(first.v.actual !== undefined ? { actual: first.v.actual } : {}),
        ...(first.v.kind !== undefined ? { kind: first.v.kind } : {}),
        exchanges: exchanges.length > 0 ? [0] : [],
      });
    } else if (errors.length > 0) {
      outcome = "errored";
      findings.push({
        requirements: [obs.requirement],
        outcome: "errored",
        message: `harness fault: the observer failed (${errors.slice(0, 3).join("; ")})`,
        exchanges: [],
        code: "IDC_INTERNAL",
      });
    } else if (seen === 0) {
      outcome = "skipped";
      const na = o.profile === undefined ? undefined : obs.notApplicable?.(o.profile);
      findings.push({
        requirements: [obs.requirement],
        outcome: "skipped",
        message:
          na === undefined
            ? "not observed: no exchange of this run is one the rule speaks of"
            : `not offered: ${na}`,
        exchanges: [],
        skipKind: na === undefined ? "other" : "not-offered",
      });
    } else if (!o.complete) {
      outcome = "skipped";
      findings.push({
        requirements: [obs.requirement],
        outcome: "skipped",
        message: `partly observed: met on the ${seen} exchanges seen, but the run did not see every check through`,
        exchanges: [],
        skipKind: "other",
      });
    } else {
      outcome = "met";
    }
    return {
      check: obs.id,
      suite,
      title: obs.title,
      section: OBSERVER_SECTION,
      requirements: { [obs.requirement]: outcome },
      findings,
      exchanges,
      notes: [`judged on ${seen} exchange(s) of ${inChecks.size} check(s)`],
      durationMs: 0,
    };
  });
}
