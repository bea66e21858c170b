import { z } from "zod";
import { suiteSection } from "../../src/engine/suite.js";

/** The delivery methods the suite tests (SSF §6.1: push is RFC 8935, poll is RFC 8936). */
export const DELIVERY_METHODS = ["push", "poll"] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** Subject identifier formats the suite can name fresh subjects in (RFC 9493 §3.2). */
export const SUBJECT_FORMATS = ["email", "opaque", "account", "uri", "phone_number"] as const;

const url = (what: string) => z.url({ protocol: /^https?$/, error: `expected an http(s) URL (${what})` });
const token = (what: string) =>
  z
    .string()
    .min(1, `expected a non-empty token (${what}, from \${ENV})`)
    .max(8192, "expected at most 8192 characters")
    .refine((t) => !/[\s\r\n]/.test(t), {
      message: `expected a token without white space (${what}; the Bearer scheme is added by the harness)`,
    });

/**
 * The trigger hook of the Transmitter: a POST `{event, subject, stream_id?, claims?}` that makes
 * it emit that event (a test hook like the other suites' hooks; the SSF texts define none).
 */
const hook = z.strictObject({
  url: url("the hook's URL"),
  headers: z.record(z.string(), z.string()).optional(),
});

/**
 * The mock Receiver idconform plays (mocks/receiver): where its push endpoint listens and the
 * URL the Transmitter reaches it by (each push stream's endpoint_url is under it).
 */
const receiver = z.strictObject({
  /** Port the mock Receiver listens on; 0 or absent picks a free one. */
  port: z.int().min(0).max(65535).optional(),
  /** Bind address (default 127.0.0.1; 0.0.0.0 to be reachable from another machine). */
  host: z.string().min(1).max(255).optional(),
  /** The URL at which the Transmitter reaches the mock Receiver; by default where it listens. */
  publicUrl: url("where the Transmitter reaches the mock Receiver").optional(),
});

/**
 * The `suites.caep-transmitter` section: a Shared Signals Transmitter of CAEP events (specs/002
 * area B; SSF 1.0, RFC 8935, RFC 8936). `baseUrl` is its issuer: discovery is read at
 * `<origin>/.well-known/ssf-configuration<path>`.
 */
export const caepTransmitterProfile = suiteSection({
  /** The Bearer token of receiver A's stream management and poll calls (from the environment). */
  receiverToken: token("receiver A's stream management token"),
  /**
   * Another receiver's token (from the environment): the isolation checks use it on receiver A's
   * streams. Absent: they skip, "not declared".
   */
  secondReceiverToken: token("another receiver's stream management token").optional(),
  /** The delivery methods to test; default: those the discovery document offers. */
  delivery: z
    .array(z.enum(DELIVERY_METHODS, { error: "expected push or poll" }))
    .min(1, "expected at least one delivery method (push, poll), or leave delivery out")
    .max(2, "expected at most the two delivery methods, push and poll")
    .refine((d) => new Set(d).size === d.length, { message: "lists a delivery method more than once" })
    .optional(),
  receiver: receiver.default({}),
  /** The aud to expect in stream configurations and SETs; default: whatever the Transmitter assigns. */
  audience: z.string().min(1).max(2048).optional(),
  hooks: z
    .strictObject({
      /** POST `{event, subject, stream_id?, claims?}`: the Transmitter emits that event. */
      trigger: hook.optional(),
    })
    .default({}),
  /** How fresh subjects are named: a format and a template whose `{n}` the harness fills. */
  subjects: z
    .strictObject({
      format: z
        .enum(SUBJECT_FORMATS, { error: `expected one of ${SUBJECT_FORMATS.join(", ")}` })
        .default("email"),
      template: z
        .string()
        .min(3)
        .max(512)
        .refine((t) => t.includes("{n}"), {
          message:
            "expected a template with {n} (replaced by a value unique to the run), e.g. idc-{n}@example.com",
        })
        .default("idc-{n}@example.com"),
    })
    .default({ format: "email", template: "idc-{n}@example.com" }),
  /** Longest wait for a triggered event (or a verification SET) to arrive, in ms. */
  eventTimeoutMs: z
    .int()
    .min(100, "expected at least 100 ms")
    .max(60_000, "expected at most 60000 ms")
    .default(5000),
  /** Model-based stream lifecycle runs (seeded from options.seed). */
  lifecycle: z
    .strictObject({
      runs: z.int().min(1, "expected at least 1 run").max(200, "expected at most 200 runs").default(15),
      maxCommands: z
        .int()
        .min(1, "expected at least 1 command")
        .max(50, "expected at most 50 commands")
        .default(12),
    })
    .default({ runs: 15, maxCommands: 12 }),
  /** Run the push resilience checks (503 and 429 with Retry-After, 400 not resent). */
  pushResilience: z.boolean().default(true),
}).superRefine((p, ctx) => {
  const s = p.subjects;
  const issue = (path: (string | number)[], message: string): void =>
    ctx.addIssue({ code: "custom", path, message });
  if (s.format === "email" && !/^[^@\s]+@[^@\s]+$/.test(s.template))
    issue(["subjects", "template"], "expected an email address template with {n}, e.g. idc-{n}@example.com");
  if (s.format === "phone_number" && !/^\+[0-9]*\{n\}[0-9]*$/.test(s.template))
    issue(
      ["subjects", "template"],
      "expected an E.164 template with {n} (filled with digits), e.g. +1555{n}",
    );
  if ((s.format === "account" || s.format === "uri") && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s.template))
    issue(["subjects", "template"], "expected a URI template with {n}, e.g. acct:idc-{n}@example.com");
  if (p.secondReceiverToken !== undefined && p.secondReceiverToken === p.receiverToken)
    issue(
      ["secondReceiverToken"],
      "is the same token as receiverToken: the isolation checks need another receiver's token",
    );
});
export type CaepTransmitterProfile = z.output<typeof caepTransmitterProfile>;
