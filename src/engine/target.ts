/** A fault a reference target can be started with, and the requirements it must break. */
export interface FaultDef {
  readonly id: string;
  readonly description: string;
  /** Requirement ids a run against the target with this fault must fail (or warn, for SHOULD). */
  readonly breaks: readonly string[];
  /**
   * Requirements the fault turns into a skip because they depend on what it breaks (a check
   * that needs a working create cannot judge the update). The fault matrix allows exactly
   * these to change from the clean run besides `breaks`. `"rest"`: every other requirement
   * depends on what the fault breaks (a target that answers no metadata offers nothing to test).
   */
  readonly skips?: readonly string[] | "rest";
  /** Requirement ids the fault makes undecidable (`error`): a hanging or flooding target. */
  readonly undecidable?: readonly string[];
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

export interface RunningTarget extends RunningServer {
  /** Environment values its demo profile (`profiles/demo/<suite>.yaml`) reads: URL, credentials. */
  readonly env: Record<string, string>;
}

/**
 * A reference target: a small, correct implementation of a target side that can be
 * started with faults (`idconform target <suite> --fault id`). Targets never import suites.
 */
export interface TargetModule {
  readonly suite: string;
  readonly faults: readonly FaultDef[];
  /**
   * Set by a target that can generate members for scale runs (`idconform target <suite>
   * --members N`, the start option `members`): the most it generates. Other targets refuse
   * `--members`.
   */
  readonly maxMembers?: number;
  start(opts: {
    faults: readonly string[];
    port?: number;
    tls?: { key: string; cert: string };
    members?: number;
  }): Promise<RunningTarget>;
}

/** The faults a running reference target was started with. */
export interface FaultSet<Id extends string = string> {
  has(id: Id): boolean;
}

/**
 * Validates the fault ids a reference target is asked to start with against its catalog. An
 * unknown id is a usage error of whoever starts the target: it throws, rather than silently
 * running a clean target.
 */
export function selectFaults<Id extends string>(
  target: string,
  catalog: readonly { readonly id: Id }[],
  ids: readonly string[],
): FaultSet<Id> {
  const known = new Set<string>(catalog.map((f) => f.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new Error(
      `unknown ${target} target fault(s): ${unknown.join(", ")} (known: ${[...known].join(", ")})`,
    );
  }
  const on = new Set(ids);
  return { has: (id) => on.has(id) };
}
