import { z } from "zod";

/** Run options every profile may set; suites never redefine these. */
export const optionsSchema = z.strictObject({
  strict: z.boolean().default(false),
  seed: z
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  allowInsecureHttp: z.boolean().default(false),
  tls: z.strictObject({ caFile: z.string().min(1).optional() }).default({}),
  timeouts: z
    .strictObject({
      requestMs: z.int().min(10).max(600_000).default(10_000),
      checkMs: z.int().min(100).max(3_600_000).default(60_000),
      runMs: z.int().min(1_000).max(86_400_000).default(1_800_000),
      /** The clean-up sweep's share of runMs (default: a tenth of it, 1 s to 60 s). */
      cleanupMs: z.int().min(100).max(3_600_000).optional(),
    })
    .refine((t) => t.cleanupMs === undefined || t.cleanupMs < t.runMs, {
      message: "cleanupMs is a share of runMs: it must be smaller",
      path: ["cleanupMs"],
    })
    .default({ requestMs: 10_000, checkMs: 60_000, runMs: 1_800_000 }),
  maxResponseBytes: z
    .int()
    .min(1024)
    .max(256 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  maxRedirects: z.int().min(0).max(20).default(5),
});

export const knownFailureSchema = z.strictObject({
  id: z.string().regex(/^[A-Z][A-Z0-9-]+$/, "expected a requirement id such as SCIM-USER-CREATE"),
  reason: z.string().min(1, "say why the failure is expected"),
});

/** The top level of a profile; `suites` is filled in from the suites found on disk. */
export function profileSchema(suites: z.ZodObject) {
  return z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    options: optionsSchema.default(optionsSchema.parse({})),
    knownFailures: z.array(knownFailureSchema).default([]),
    suites,
  });
}

export type RunOptions = z.output<typeof optionsSchema>;
export type KnownFailure = z.output<typeof knownFailureSchema>;
