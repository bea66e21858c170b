/**
 * The poll-page-rejected-whole fault: a poller that validates a poll answer as a whole. One
 * refused SET makes the whole page refused, with its error: the valid SETs (already acted on)
 * move from the acknowledgements to setErrs.
 */
export function rejectPage(acks: Set<string>, errs: Record<string, unknown>): void {
  const first = Object.values(errs)[0];
  if (first === undefined) return;
  for (const jti of acks) errs[jti] = first;
  acks.clear();
}
