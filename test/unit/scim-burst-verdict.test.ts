import { describe, expect, it } from "vitest";
import { burstVerdict, peakInWindow } from "../../suites/scim/checks/rate-limit.js";

const evenly = (n: number, everyMs: number): number[] => Array.from({ length: n }, (_, i) => i * everyMs);

describe("SCIM rate-limit burst: a burst without 429 fails only when it went over the limit", () => {
  it("counts the most requests sent within any window, sliding", () => {
    expect(peakInWindow([], 1000)).toBe(0);
    expect(peakInWindow(evenly(10, 100), 1000)).toBe(10);
    expect(peakInWindow(evenly(20, 100), 1000)).toBe(10);
    // A dense tail after a slow start: the window slides onto it.
    expect(peakInWindow([0, 2000, 2001, 2002, 2003], 1000)).toBe(4);
    // A request exactly one window after another is in the next window.
    expect(peakInWindow([0, 1000], 1000)).toBe(1);
  });

  it("without a stated limit, decides only when the whole burst went out within one window", () => {
    const fast = burstVerdict({ sentAt: evenly(500, 1), limited: false }, { burst: 500, windowSeconds: 1 });
    expect(fast.decided).toBe(true);
    // 500 requests over 2.5 s on a loaded machine: about 200 a second, under a 400-a-second limit.
    const slow = burstVerdict({ sentAt: evenly(500, 5), limited: false }, { burst: 500, windowSeconds: 1 });
    expect(slow.decided).toBe(false);
    expect(slow.reached).toContain(
      "500 requests sent over 2.50 s (about 200 a second), at most 200 within any 1 s",
    );
    expect(slow.bar).toBe("all 500 requests within 1 s");
  });

  it("with a stated limit, decides when more than it went out within its window", () => {
    const o = { burst: 150, statedLimit: 100, windowSeconds: 60 };
    // 150 requests over 90 s: at most 100 within any 60 s, never over the limit.
    expect(burstVerdict({ sentAt: evenly(150, 600), limited: false }, o).decided).toBe(false);
    expect(burstVerdict({ sentAt: evenly(150, 300), limited: false }, o).decided).toBe(true);
    expect(burstVerdict({ sentAt: evenly(101, 10), limited: false }, o).bar).toBe(
      "more than the stated limit of 100 within 60 s",
    );
  });
});
