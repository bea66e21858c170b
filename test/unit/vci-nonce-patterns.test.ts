import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { noncePatterns } from "../../suites/vci/checks/nonce.js";

// The unpredictability judgement of VCI-NONCE-UNPREDICTABLE: random nonces never look
// patterned; counters, clocks, shared prefixes and short alphabets always do.
/** Deterministic uniform bytes: a hash of the seed and an index (what a good nonce looks like). */
const randomBytes = (n: number, seed: number, i: number): Buffer =>
  createHash("sha512").update(`${seed}:${i}`).digest().subarray(0, n);
let counter = 0;
const bytes = (n: number): Buffer => randomBytes(n, 7, counter++);

describe("nonce patterns (specs/000 Nonce Response: new values MUST be unpredictable)", () => {
  it("random 16-to-32-byte values show no pattern", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 32 }),
        fc.integer({ min: 8, max: 80 }),
        fc.integer(),
        (size, n, seed) => {
          const values = Array.from({ length: n }, (_, i) =>
            randomBytes(size, seed, i).toString("base64url"),
          );
          expect(noncePatterns(values)).toEqual([]);
        },
      ),
      { seed: 20261123, numRuns: 50 },
    );
  });

  it("a counter, a clock, a shared prefix, fixed positions, repeats and a short alphabet are each found", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 8, max: 64 }), (start, n) => {
        const counter = Array.from({ length: n }, (_, i) => String(start + i).padStart(12, "0"));
        expect(noncePatterns(counter).length).toBeGreaterThan(0);
      }),
      { seed: 20261123, numRuns: 50 },
    );
    const now = Date.now();
    expect(
      noncePatterns(
        Array.from({ length: 16 }, (_, i) => `n${now + i * 7}`),
        now,
      ).join(),
    ).toMatch(/timestamp|increasing/);
    const prefixed = Array.from({ length: 16 }, () => `session-nonce-${bytes(4).toString("hex")}`);
    expect(noncePatterns(prefixed).join()).toMatch(/bits change/);
    const repeated = Array.from({ length: 16 }, () => bytes(24).toString("base64url"));
    repeated[5] = repeated[4]!;
    expect(noncePatterns(repeated).join()).toMatch(/repeated/);
    const short = Array.from({ length: 16 }, () => bytes(4).toString("hex"));
    expect(noncePatterns(short).join()).toMatch(/bits change/);
    // A JWT-like nonce with a fixed header and a long random part is not flagged.
    const jwtLike = Array.from(
      { length: 16 },
      () => `eyJhbGciOiJFUzI1NiIsInR5cCI6Im5vbmNlK2p3dCJ9.${bytes(48).toString("base64url")}`,
    );
    expect(noncePatterns(jwtLike)).toEqual([]);
    // A hostile pair of 4 MiB values is judged on a bounded prefix of each.
    const huge = ["A".repeat(4 << 20), `${"A".repeat(2 << 20)}${"B".repeat(2 << 20)}`];
    expect(noncePatterns(huge).join()).toMatch(/bits change/);
  });
});
