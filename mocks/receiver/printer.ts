import { eventLabel, type PushNotice } from "./push-route.js";

/** Lines per second printed one per SET; beyond, one summary line per second. */
export const LINES_PER_SECOND = 20;
const MAX_LINE = 400;

/** Hostile values (a jti, an event URI) reach a terminal: control characters and escapes go. */
const clean = (s: string): string =>
  s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "?");
const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 3)}...` : s);

/** One line for one push: time, status answered, jti, event type, verdict. */
export function pushLine(n: PushNotice): string {
  const time = new Date().toISOString().slice(11, 23);
  if (n.overCap) return `${time} ${n.status} body over the 64 KiB cap (${n.bytes} bytes read, not stored)`;
  const e = n.set!;
  const problems = e.problems ?? [];
  const verdict =
    problems.length === 0
      ? e.verified
        ? "valid"
        : "valid claims (signature not verified: give --issuer)"
      : `${problems.length} problem${problems.length === 1 ? "" : "s"}: ${problems
          .map((p) => `${p.rule}: ${p.message}`)
          .join("; ")}${e.verified ? "" : " (signature not verified)"}`;
  const auth = e.authorization === "present" ? "" : ` authorization ${e.authorization}`;
  return cut(
    clean(
      `${time} ${e.status} jti=${cut(e.jti ?? "-", 80)} ${cut(eventLabel(e.events), 120)}${auth}: ${verdict}`,
    ),
    MAX_LINE,
  );
}

/**
 * What `idconform mock receiver` prints: one line per push while they come slowly, and under a
 * flood at most LINES_PER_SECOND of them per second plus one summary line per second for the
 * rest (counts by outcome), so the output stays bounded whatever the Transmitter sends.
 * `tick` closes a second; the command calls it from a timer.
 */
export class PushPrinter {
  private lines = 0;
  private more = { pushes: 0, valid: 0, problems: 0, overCap: 0, refused: 0 };

  constructor(
    private readonly write: (line: string) => void,
    private readonly perSecond = LINES_PER_SECOND,
  ) {}

  push(n: PushNotice): void {
    if (this.lines < this.perSecond) {
      this.lines++;
      this.write(pushLine(n));
      return;
    }
    const m = this.more;
    m.pushes++;
    if (n.overCap) m.overCap++;
    else if ((n.set?.problems ?? []).length === 0) m.valid++;
    else m.problems++;
    if (n.status >= 400 && !n.overCap) m.refused++;
  }

  tick(): void {
    const m = this.more;
    if (m.pushes > 0)
      this.write(
        `... ${m.pushes} more pushes in the last second: ${m.valid} valid, ${m.problems} with problems, ${m.overCap} over the body cap, ${m.refused} refused`,
      );
    this.lines = 0;
    this.more = { pushes: 0, valid: 0, problems: 0, overCap: 0, refused: 0 };
  }
}
