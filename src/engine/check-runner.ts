import { HarnessError, SetupError } from "./errors.js";
import { inferKind, type FindingKind } from "./finding-kind.js";
import type { SetupLog } from "./setup-log.js";
import { prefix, RecordingClient, type ClientOptions, type HttpResponse } from "../http/client.js";
import { Redactor, WITHHELD, type SecretEntry } from "../http/redactor.js";
import type { CheckContext, CheckDefinition, CheckResult, Details } from "./check.js";
import type { Exchange } from "../http/exchange.js";
import type { Outcome, SkipKind } from "./verdict.js";
import { ObservationLog, type ObserverDefinition } from "./observer.js";

class StopCheck extends Error {}
class SkipCheck extends Error {
  constructor(
    readonly reason: string,
    readonly kind: SkipKind,
  ) {
    super(reason);
  }
}

export interface CheckEnvironment {
  readonly suite: string;
  readonly section: string;
  readonly profile: unknown;
  readonly features: Record<string, boolean>;
  readonly probes: Record<string, unknown>;
  readonly client: ClientOptions;
  readonly secrets: readonly SecretEntry[];
  readonly seed: number;
  readonly runId: string;
  readonly provided: Record<string, unknown>;
  /** The suite's observers: each sees every response of the check. */
  readonly observers?: readonly ObserverDefinition[];
  /** What the run learnt of the profile's setup so far (`CheckContext.setup`); without it, nothing is shared. */
  readonly setupLog?: SetupLog;
}

/**
 * Runs one check outside of any test framework and returns its result. Everything the
 * target does ends here as a finding; only `error` outcomes say the harness could not decide.
 */
export async function runCheck(
  def: CheckDefinition,
  env: CheckEnvironment,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const started = Date.now();
  const redactor = new Redactor(env.secrets);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const http = new RecordingClient(env.client, controller.signal, redactor);
  // The status of the latest response: a violation that cites no response is read against it.
  let lastStatus: number | undefined;
  http.onResponse((_req, res) => void (lastStatus = res.status));
  const observed =
    env.observers && env.observers.length > 0 ? new ObservationLog(env.observers, env.profile) : undefined;
  if (observed) {
    http.onResponse((req, res) =>
      observed.see(
        {
          check: def.id,
          label: req.label,
          tags: req.tags,
          method: req.method,
          url: req.url,
          requestHeaders: req.headers,
          status: res.status,
          headers: res.headers,
          header: (n) => res.header(n),
          text: res.text,
          get json() {
            return res.json;
          },
          get jsonError() {
            return res.jsonError;
          },
        },
        res.exchangeId,
      ),
    );
  }
  const outcomes = new Map<string, Outcome>();
  const raw: {
    requirements: string[];
    outcome: Exclude<Outcome, "met">;
    details: Details;
    kind?: SkipKind;
    findingKind?: FindingKind;
    code?: string;
    setup?: { path: string; problem: string; foundBy: string };
    exchanges?: number[];
  }[] = [];
  const notes: string[] = [];
  /** Requirements part of whose subject could not be judged (`partly`): never a pass. */
  const partial = new Map<string, { reason: string; kind: SkipKind }>();
  const known = new Set(def.requirements);
  const complete = new Set<string>();
  const unknown = (verb: string, id: string): HarnessError =>
    new HarnessError(
      "IDC_INTERNAL",
      `check ${def.id} ${verb} ${id}, which it does not name in its requirements`,
    );

  const record = (id: string, ok: boolean, details: Details): boolean => {
    if (!known.has(id)) throw unknown("decided", id);
    if (ok) {
      if (!outcomes.has(id) || outcomes.get(id) === "skipped") outcomes.set(id, "met");
    } else {
      outcomes.set(id, "violated");
      const last = details.res?.exchangeId ?? (http.count > 0 ? http.count - 1 : undefined);
      raw.push({
        requirements: [id],
        outcome: "violated",
        details: capDetails(details),
        findingKind: details.kind ?? inferKind(details, details.res?.status ?? lastStatus),
        ...(last !== undefined ? { exchanges: [last] } : {}),
      });
    }
    return ok;
  };

  const skipOne = (id: string, reason: string, kind: SkipKind): void => {
    if (!known.has(id)) throw unknown("skipped", id);
    if (outcomes.has(id)) return;
    outcomes.set(id, "skipped");
    raw.push({ requirements: [id], outcome: "skipped", details: capDetails({ message: reason }), kind });
  };

  const ctx: CheckContext = {
    http,
    profile: env.profile,
    seed: env.seed,
    runId: env.runId,
    provided: env.provided,
    signal: controller.signal,
    check: (id, ok, details = {}) => record(id, ok, details),
    require: (id, ok, details = {}) => {
      if (!record(id, ok, details)) throw new StopCheck();
    },
    json: <T>(id: string, res: HttpResponse): T => {
      record(id, res.jsonError === undefined, {
        expected: "a JSON body",
        actual: res.jsonError ?? "",
        message: "the response body is not JSON",
        res,
        kind: "malformed",
      });
      if (res.jsonError !== undefined) throw new StopCheck();
      return res.json as T;
    },
    skipOnly: (id, reason, kind = "other") => skipOne(id, reason, kind),
    partly: (id, reason, kind = "not-exercised") => {
      if (!known.has(id)) throw unknown("skipped", id);
      if (!partial.has(id)) partial.set(id, { reason, kind });
      if (!outcomes.has(id)) outcomes.set(id, "skipped");
    },
    each: async (id, items, what, judge) => {
      if (!known.has(id)) throw unknown("judged", id);
      if (items.length === 0) {
        skipOne(id, `no ${what} to judge: the requirement speaks of every one, and there were none`, "other");
        return false;
      }
      let first: Details | undefined;
      let firstIndex = 0;
      let bad = 0;
      for (let i = 0; i < items.length; i++) {
        let v: Details | undefined;
        try {
          v = await judge(items[i] as (typeof items)[number], i);
        } catch (err) {
          // The target dropped or left unanswered the exchange of this item (a connection reset
          // or closed, no answer in time): its answer to this item, judged with the others.
          // A stopped run, an unreachable target and every other error end the check as before.
          if (controller.signal.aborted || !unanswered(err)) throw err;
          v = {
            expected: `an HTTP answer to ${what} ${i + 1}`,
            actual: `no answer: ${(err as Error).message}`,
            message: "the target gave no answer",
            kind: "missing",
          };
        }
        if (v === undefined) continue;
        bad++;
        if (first === undefined) {
          first = v;
          firstIndex = i;
        }
      }
      if (first === undefined) return record(id, true, {});
      const of = `${what} ${firstIndex + 1} of ${items.length}`;
      const more = bad > 1 ? ` (${bad} of ${items.length} ${what} violate it; the first is shown)` : "";
      return record(id, false, {
        ...first,
        message: `${of}: ${first.message ?? "not met"}${more}`,
      });
    },
    complete: (id) => {
      if (!known.has(id)) throw unknown("completed", id);
      complete.add(id);
    },
    skip: (reason, kind = "other") => {
      throw new SkipCheck(reason, kind);
    },
    note: (text) => void notes.push(text),
    setup: async (key, step) => {
      const found = env.setupLog?.get(key);
      if (found) throw new SetupError(found.path, found.problem, found.check);
      try {
        return await step();
      } catch (e) {
        if (e instanceof SetupError && e.foundBy === undefined)
          env.setupLog?.put(key, { path: e.path, problem: e.problem, check: def.id });
        throw e;
      }
    },
    secret: (value, name) => redactor.add(value, name),
  };

  const gate = gateSkip(def, env);
  try {
    if (gate) throw gate;
    await def.run(ctx);
    for (const id of def.requirements) {
      if (!outcomes.has(id)) {
        outcomes.set(id, "errored");
        raw.push({
          requirements: [id],
          outcome: "errored",
          details: { message: `check ${def.id} ended without deciding ${id} (a harness defect)` },
          code: "IDC_INTERNAL",
        });
      }
    }
  } catch (err) {
    const undecided = def.requirements.filter((id) => !outcomes.has(id));
    if (err instanceof SkipCheck) {
      // A requirement met on what was seen before the skip was only partly observed: it stays
      // a skip that says so, unless the check marked it completely decided.
      const partial = def.requirements.filter((id) => outcomes.get(id) === "met" && !complete.has(id));
      for (const id of partial) outcomes.set(id, "skipped");
      if (partial.length > 0) {
        raw.push({
          requirements: partial,
          outcome: "skipped",
          details: capDetails({
            message: `partly observed: met on what was seen before the check stopped, not decided as a whole (${err.reason})`,
          }),
          kind: err.kind,
        });
      }
      for (const id of undecided) outcomes.set(id, "skipped");
      if (undecided.length > 0) {
        raw.push({
          requirements: undecided,
          outcome: "skipped",
          details: capDetails({ message: err.reason }),
          kind: err.kind,
        });
      }
    } else if (err instanceof StopCheck) {
      for (const id of undecided) outcomes.set(id, "skipped");
      if (undecided.length > 0) {
        raw.push({
          requirements: undecided,
          outcome: "skipped",
          details: { message: "not observed: the check stopped at an earlier failure" },
          kind: "dependency",
        });
      }
    } else {
      // The profile's setup (SetupError) or what stopped the harness: what was met before the
      // check broke off may still have had observations to come, so only a violation stands.
      const setup = err instanceof SetupError ? err : undefined;
      const code = err instanceof HarnessError ? err.code : "IDC_INTERNAL";
      const message = err instanceof Error ? err.message : String(err);
      for (const id of def.requirements) if (outcomes.get(id) === "met") undecided.push(id);
      for (const id of undecided) outcomes.set(id, "errored");
      if (undecided.length > 0) {
        raw.push({
          requirements: undecided,
          outcome: "errored",
          details: capDetails({
            message: setup
              ? setup.foundBy === undefined
                ? `setup: ${message}`
                : `setup: not run, stopped by the setup problem check ${setup.foundBy} found: ${message}`
              : code === "IDC_INTERNAL"
                ? `harness fault: ${message}`
                : message,
          }),
          code,
          ...(setup
            ? {
                setup: {
                  path: setup.path,
                  problem: capText(setup.problem),
                  foundBy: setup.foundBy ?? def.id,
                },
              }
            : {}),
          // A check stopped by an earlier check's setup problem asked nothing worth citing.
          ...(http.count > 0 && setup?.foundBy === undefined ? { exchanges: [http.count - 1] } : {}),
        });
      }
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }

  // What met its rule on every item judged, while some item could not be judged (`partly`),
  // is not a pass: it stays a skip saying why. A violation stands.
  for (const [id, p] of partial) {
    const o = outcomes.get(id);
    const said = raw.some((f) => f.outcome === "skipped" && f.requirements.includes(id));
    if (o === "met" || (o === "skipped" && !said)) {
      outcomes.set(id, "skipped");
      raw.push({
        requirements: [id],
        outcome: "skipped",
        details: capDetails({ message: o === "met" ? `partly observed: ${p.reason}` : p.reason }),
        kind: p.kind,
      });
    }
  }
  // A skipOnly later overtaken by an observation is no longer a finding.
  const current = raw.filter(
    (f) => f.outcome !== "skipped" || f.requirements.some((id) => outcomes.get(id) === "skipped"),
  );
  const result = (text: (s: string) => string, exchanges: Exchange[], extra: string[] = []): CheckResult => ({
    check: def.id,
    suite: env.suite,
    title: def.title,
    section: env.section,
    requirements: Object.fromEntries(def.requirements.map((id) => [id, outcomes.get(id) ?? "errored"])),
    findings: current.map((f) => ({
      requirements: f.requirements,
      outcome: f.outcome,
      message: text(f.details.message ?? defaultMessage(f.outcome)),
      ...(f.details.expected !== undefined ? { expected: text(f.details.expected) } : {}),
      ...(f.details.actual !== undefined ? { actual: text(f.details.actual) } : {}),
      exchanges: exchanges.length > 0 ? (f.exchanges ?? []) : [],
      ...(f.kind ? { skipKind: f.kind } : {}),
      ...(f.findingKind ? { kind: f.findingKind } : {}),
      ...(f.code ? { code: f.code } : {}),
      ...(f.setup
        ? { setup: { path: f.setup.path, problem: text(f.setup.problem), foundBy: f.setup.foundBy } }
        : {}),
    })),
    exchanges,
    notes: [...notes.map(text), ...extra],
    durationMs: Date.now() - started,
    ...(observed ? { observations: observed.observations(text) } : {}),
  });
  try {
    // Redact only now: secrets the check registered late still cover earlier text.
    const exchanges = http.evidence(
      redactor,
      new Set([...current.flatMap((f) => f.exchanges ?? []), ...(observed?.cited() ?? [])]),
    );
    return result((t) => redactor.text(t), exchanges);
  } catch {
    // Redaction never fails open: if the texts could not be made safe, none of them leaves.
    return result(() => WITHHELD, [], ["the evidence of this check is left out"]);
  }
}

function defaultMessage(outcome: Exclude<Outcome, "met">): string {
  return outcome === "violated" ? "not met" : outcome === "skipped" ? "not observed" : "could not be decided";
}

function gateSkip(def: CheckDefinition, env: CheckEnvironment): SkipCheck | undefined {
  // `features.<name>: false` says the target does not offer the optional feature: the
  // requirement does not apply. Left out, the profile did not say: the check is not exercised.
  if (def.feature !== undefined && env.features[def.feature] === false) {
    return new SkipCheck(
      `not offered: the profile declares that the target does not offer it (suites.${env.suite}.features.${def.feature}: false)`,
      "not-offered",
    );
  }
  if (def.feature !== undefined && env.features[def.feature] !== true) {
    return new SkipCheck(
      `feature "${def.feature}" is not declared in the profile (suites.${env.suite}.features.${def.feature})`,
      "not-declared",
    );
  }
  // `probes.<name>: false` declares that the target has nothing such a probe could show (a
  // provider without any notion of user access): the requirement does not apply to it.
  if (def.probe !== undefined && env.probes[def.probe] === false) {
    return new SkipCheck(
      `not offered: the profile declares that the target has nothing to probe (suites.${env.suite}.probes.${def.probe}: false)`,
      "not-offered",
    );
  }
  if (def.probe !== undefined && env.probes[def.probe] === undefined) {
    return new SkipCheck(
      `needs probe: the profile gives no suites.${env.suite}.probes.${def.probe}`,
      "needs-probe",
    );
  }
  return undefined;
}

/** A target chooses what lands in `actual`; a finding keeps a bounded part of it. */
const FINDING_TEXT_CAP = 4000;
function capText(t: string): string {
  return t.length <= FINDING_TEXT_CAP
    ? t
    : `${prefix(t, FINDING_TEXT_CAP)}… [cut at ${FINDING_TEXT_CAP} characters]`;
}
function capDetails(d: Details): Details {
  const cut = (t: string | undefined): string | undefined => (t === undefined ? t : capText(t));
  const expected = cut(d.expected);
  const actual = cut(d.actual);
  const message = cut(d.message);
  // The response itself is not kept: its exchange id is, and the evidence keeps its start.
  const { res: _res, ...rest } = d;
  return {
    ...rest,
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
    ...(message !== undefined ? { message } : {}),
  };
}

/**
 * True for what a check throws to end itself rather than to report the target: a skip, an
 * earlier failure, or a harness error (aborted, unreachable, timed out). Property-based checks
 * use it so that such a throw inside a property is not mistaken for a counterexample.
 */
export function isCheckControl(err: unknown): boolean {
  return err instanceof SkipCheck || err instanceof StopCheck || err instanceof HarnessError;
}

/**
 * True when an exchange failed because the target dropped it without an answer (the
 * connection reset or closed mid-exchange): not a stopped run (aborted), not an unreachable
 * target, not a timeout, not a TLS failure.
 */
function unanswered(err: unknown): boolean {
  return (
    err instanceof HarnessError &&
    err.code === "IDC_HTTP_FAILED" &&
    !/: (aborted: |unsupported scheme )/.test(err.message)
  );
}
