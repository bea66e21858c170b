/** A fault a reference target can be started with, and the requirements it must break. */
export interface FaultDef {
  readonly id: string;
  readonly description: string;
  /** Requirement ids a run against the target with this fault must fail (or warn, for SHOULD). */
  readonly breaks: readonly string[];
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
  start(opts: {
    faults: readonly string[];
    port?: number;
    tls?: { key: string; cert: string };
  }): Promise<RunningTarget>;
}
