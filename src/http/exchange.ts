/**
 * One HTTP exchange as the report shows it: already redacted, bodies capped.
 * `error` is set when no complete response was received (timeout, size cap, TLS, refused).
 */
export interface Exchange {
  readonly id: number;
  readonly label?: string;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Record<string, string>;
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly body?: string;
    readonly bodyBytes: number;
  };
  readonly truncated?: boolean;
  readonly error?: { readonly code: string; readonly message: string };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly curl: string;
}

/** Bytes of a body kept in evidence; the rest is cut with a marker. */
export const EVIDENCE_BODY_CAP = 64 * 1024;
