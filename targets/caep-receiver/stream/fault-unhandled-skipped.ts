/**
 * The poll-unhandled-event-skipped fault: a poller that dispatches each SET to a handler per
 * event type and, finding none (session-presented only informs), moves on without recording an
 * outcome: the SET is neither acknowledged nor reported.
 */
export function hasNoHandler(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      events?: Record<string, unknown>;
    };
    return Object.keys(payload.events ?? {}).some((uri) => uri.endsWith("/session-presented"));
  } catch {
    return false;
  }
}
