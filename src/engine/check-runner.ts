import { HarnessError } from "./errors.js";
import { prefix, RecordingClient, type ClientOptions, type HttpResponse } from "../http/client.js";
import { Redactor, WITHHELD, type SecretEntry } from "../http/redactor.js";
import type { CheckContext, CheckDefinition, CheckResult, Details } from "./check.js";
import type { Exchange } from "../http/exchange.js";
import type { Outcome, SkipKind } from "./verdict.js";

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
  const outcomes = new Map<string, Outcome>();
  const raw: {
    requirements: string[];
    outcome: Exclude<Outcome, "met">;
    details: Details;
    kind?: SkipKind;
    code?: string;
    exchanges?: number[];
  }[] = [];
  const notes: string[] = [];
  const known = new Set(def.requirements);

  const record = (id: string, ok: boolean, details: Details): boolean => {
    if (!known.has(id)) {
      throw new HarnessError(
        "IDC_INTERNAL",
        `check ${def.id} decided ${id}, which it does not name in its requirements`,
      );
    }
    if (ok) {
      if (!outcomes.has(id) || outcomes.get(id) === "skipped") outcomes.set(id, "met");
    } else {
      outcomes.set(id, "violated");
      const last = details.res?.exchangeId ?? (http.count > 0 ? http.count - 1 : undefined);
      raw.push({
        requirements: [id],
        outcome: "violated",
        details: capDetails(details),
        ...(last !== undefined ? { exchanges: [last] } : {}),
      });
    }
    return ok;
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
      });
      if (res.jsonError !== undefined) throw new StopCheck();
      return res.json as T;
    },
    skipOnly: (id, reason, kind = "other") => {
      if (!known.has(id)) {
        throw new HarnessError(
          "IDC_INTERNAL",
          `check ${def.id} skipped ${id}, which it does not name in its requirements`,
        );
      }
      if (outcomes.has(id)) return;
      outcomes.set(id, "skipped");
      raw.push({ requirements: [id], outcome: "skipped", details: capDetails({ message: reason }), kind });
    },
    skip: (reason, kind = "other") => {
      throw new SkipCheck(reason, kind);
    },
    note: (text) => void notes.push(text),
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
      const code = err instanceof HarnessError ? err.code : "IDC_INTERNAL";
      const message = err instanceof Error ? err.message : String(err);
      // What was met before the check broke off may still have had observations to come:
      // only a violation stands; everything else could not be decided.
      for (const id of def.requirements) if (outcomes.get(id) === "met") undecided.push(id);
      for (const id of undecided) outcomes.set(id, "errored");
      if (undecided.length > 0) {
        raw.push({
          requirements: undecided,
          outcome: "errored",
          details: capDetails({ message: code === "IDC_INTERNAL" ? `harness fault: ${message}` : message }),
          code,
          ...(http.count > 0 ? { exchanges: [http.count - 1] } : {}),
        });
      }
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
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
      ...(f.code ? { code: f.code } : {}),
    })),
    exchanges,
    notes: [...notes.map(text), ...extra],
    durationMs: Date.now() - started,
  });
  try {
    // Redact only now: secrets the check registered late still cover earlier text.
    const exchanges = http.evidence(redactor, new Set(current.flatMap((f) => f.exchanges ?? [])));
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
  if (def.feature !== undefined && env.features[def.feature] !== true) {
    return new SkipCheck(
      `feature "${def.feature}" is not declared in the profile (suites.${env.suite}.features.${def.feature})`,
      "not-declared",
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
function capDetails(d: Details): Details {
  const cut = (t: string | undefined): string | undefined =>
    t === undefined || t.length <= FINDING_TEXT_CAP
      ? t
      : `${prefix(t, FINDING_TEXT_CAP)}… [cut at ${FINDING_TEXT_CAP} characters]`;
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
