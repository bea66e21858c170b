import type { RunningServer } from "./target.js";

/** A counterparty idconform plays, runnable in-process by a suite or standalone (`idconform mock <role>`). */
export interface MockModule {
  readonly role: string;
  readonly description: string;
  start(opts: { port?: number; host?: string }): Promise<RunningServer>;
}
