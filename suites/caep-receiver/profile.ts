import { z } from "zod";
import { privateJwkText } from "../../src/engine/profile-keys.js";
import { accessProbe, probes, suiteSection } from "../../src/engine/suite.js";

/** The access-reducing CAEP events an effect check can probe (specs/002 area B, event table). */
export const ACCESS_REDUCING = [
  "credential-change",
  "assurance-level-change",
  "device-compliance-change",
  "risk-level-change",
] as const;
/** Subject forms under which a Receiver can be asked to honour `session-revoked`. */
export const SESSION_SUBJECT_FORMS = ["complex", "email", "iss_sub", "opaque"] as const;

const headers = z.record(z.string(), z.string());

/** A test hook of the Receiver: a POST the harness makes to set up what an effect check needs. */
const hook = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
  headers: headers.optional(),
});

/**
 * The Transmitter idconform plays (mocks/transmitter): where it listens, the URL and issuer the
 * Receiver knows it by, the key it signs SETs with, and the token the Receiver's stream
 * management calls carry.
 */
const transmitter = z.strictObject({
  /**
   * Port the mock Transmitter listens on; 0 picks a free one. Default: the port of publicUrl when
   * it names a loopback host (127.0.0.1, localhost, [::1]), else a free one.
   */
  port: z.int().min(0).max(65535).optional(),
  /** Bind address (default 127.0.0.1; 0.0.0.0 to be reachable from another machine). */
  host: z.string().min(1).max(255).optional(),
  /** The URL at which the Receiver reaches the Transmitter; by default where it listens. */
  publicUrl: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }).optional(),
  /** The issuer of every SET and of the SSF configuration; by default publicUrl. */
  issuer: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }).optional(),
  /**
   * The Transmitter's private signing key as a JWK (JSON text, from the environment); generated
   * (ES256) when absent. Any key `src/engine/profile-keys.ts` takes; the forgeries of the refusal
   * checks use the same algorithm, so a Receiver that pins it is still tested on kid and signature.
   */
  signingKey: privateJwkText().optional(),
  /**
   * The Bearer token the Receiver's stream management calls carry (from the environment): the
   * mock refuses others. Required when the Receiver creates its own stream.
   */
  receiverToken: z.string().min(1).max(4096).optional(),
});

/**
 * The `suites.caep-receiver` section: the Receiver of CAEP events (specs/002 area B; SSF,
 * RFC 8935, RFC 8936), how SETs reach it, and the test hooks and probes that show their effects.
 */
export const caepReceiverProfile = suiteSection({
  probes: probes({
    /** 2xx while a session is valid, 401/403/404 after; `{session}` is the session's opaque id. */
    sessionActive: accessProbe("{session}"),
    /** 2xx while a user has access, 401/403/404 after; `{user}` is the user's email. */
    subjectAccess: accessProbe("{user}"),
  }),
  /** How SETs reach the Receiver: pushed to its endpoint (RFC 8935) or polled by it (RFC 8936). */
  delivery: z.enum(["push", "poll"]).default("push"),
  /** Whether the Receiver creates its stream at the mock Transmitter, or the profile gives it. */
  stream: z.enum(["receiver-creates", "preconfigured"]).default("receiver-creates"),
  /** The `aud` the Receiver expects in its SETs (its stream's aud); by default baseUrl. */
  audience: z.string().min(1).max(2048).optional(),
  /** A preconfigured push stream: the Receiver's push endpoint and the authorization it expects. */
  push: z
    .strictObject({
      endpointUrl: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
      /** The whole Authorization header value (from the environment): `Bearer ...`. */
      authorization: z.string().min(1).max(8192),
    })
    .optional(),
  /** A preconfigured poll stream: the stream id whose poll endpoint the Receiver polls. */
  poll: z
    .strictObject({
      streamId: z
        .string()
        .regex(
          /^[A-Za-z0-9._~-]{1,200}$/,
          "expected 1 to 200 URL-safe characters (letters, digits, . _ ~ -)",
        ),
    })
    .optional(),
  transmitter: transmitter.default({}),
  /** Longest wait for the Receiver to create (and verify) its stream, in ms. */
  streamSetupTimeoutMs: z
    .int()
    .min(100, "expected at least 100 ms")
    .max(120_000, "expected at most 120000 ms")
    .default(10_000),
  /** Longest wait for the outcome of a polled SET (acknowledged or reported), in ms. */
  deliveryTimeoutMs: z
    .int()
    .min(100, "expected at least 100 ms")
    .max(60_000, "expected at most 60000 ms")
    .default(5000),
  /**
   * Longest wait, in ms, for the Receiver to follow a change of the keys at jwks_uri (a new key
   * trusted, a dropped one refused): SETs are sent again, each a fresh one, until it does. A
   * Receiver may refetch only so often (jose's createRemoteJWKSet: at most every 30 s).
   */
  keyRotationTimeoutMs: z
    .int()
    .min(100, "expected at least 100 ms")
    .max(120_000, "expected at most 120000 ms")
    .default(40_000),
  /** The largest SET body the Receiver takes; the oversize probe sends four times this. */
  maxBodyBytes: z
    .int()
    .min(1024, "expected at least 1024 bytes")
    .max(4 * 1024 * 1024, "expected at most 4194304 bytes (4 MiB; the oversize probe sends four times this)")
    .default(65_536),
  /** Test hooks of the Receiver. */
  hooks: z
    .strictObject({
      /** POST `{user, session}` (subject identifiers) creates an active session for the user. */
      session: hook.optional(),
    })
    .default({}),
  effects: z
    .strictObject({
      /** Longest wait for an event's effect to show in a probe, in ms. */
      timeoutMs: z
        .int()
        .min(100, "expected at least 100 ms")
        .max(60_000, "expected at most 60000 ms")
        .default(3000),
      /** The access-reducing events the Receiver acts on (each probed with subjectAccess). */
      accessReducing: z
        .array(z.enum(ACCESS_REDUCING))
        .max(ACCESS_REDUCING.length)
        .default([...ACCESS_REDUCING]),
      /** Subject forms under which the Receiver must honour session-revoked. */
      subjectFormats: z
        .array(z.enum(SESSION_SUBJECT_FORMS))
        .max(SESSION_SUBJECT_FORMS.length)
        .default([...SESSION_SUBJECT_FORMS]),
    })
    .default({
      timeoutMs: 3000,
      accessReducing: [...ACCESS_REDUCING],
      subjectFormats: [...SESSION_SUBJECT_FORMS],
    }),
  /** Generated batches of the property-based poll check (seeded). */
  pollRuns: z.int().min(1, "expected at least 1 run").max(200, "expected at most 200 runs").default(20),
}).superRefine((p, ctx) => {
  const issue = (path: (string | number)[], message: string): void =>
    ctx.addIssue({ code: "custom", path, message });
  if (p.stream === "preconfigured") {
    if (p.delivery === "push" && p.push === undefined)
      issue(
        ["push"],
        "required with stream: preconfigured and delivery: push (expected { endpointUrl, authorization }: where idconform pushes SETs)",
      );
    if (p.delivery === "poll" && p.poll === undefined)
      issue(
        ["poll"],
        "required with stream: preconfigured and delivery: poll (expected { streamId }: the stream the Receiver polls)",
      );
  } else {
    if (p.transmitter.receiverToken === undefined)
      issue(
        ["transmitter", "receiverToken"],
        "required with stream: receiver-creates (expected string: the Bearer token the Receiver's stream management calls carry, from ${ENV})",
      );
    if (p.push !== undefined)
      issue(
        ["push"],
        "only read with stream: preconfigured; a Receiver that creates its stream names its push endpoint itself (remove push, or set stream: preconfigured)",
      );
    if (p.poll !== undefined)
      issue(
        ["poll"],
        "only read with stream: preconfigured; a Receiver that creates its stream gets its poll endpoint from the Transmitter (remove poll, or set stream: preconfigured)",
      );
  }
  if (p.delivery === "poll" && p.push !== undefined && p.stream === "preconfigured")
    issue(["push"], "only read with delivery: push (remove it, or set delivery: push)");
  if (p.delivery === "push" && p.poll !== undefined && p.stream === "preconfigured")
    issue(["poll"], "only read with delivery: poll (remove it, or set delivery: poll)");
  if (p.effects.accessReducing.length !== new Set(p.effects.accessReducing).size)
    issue(["effects", "accessReducing"], "lists an event more than once");
  if (p.effects.subjectFormats.length !== new Set(p.effects.subjectFormats).size)
    issue(["effects", "subjectFormats"], "lists a subject form more than once");
});
export type CaepReceiverProfile = z.output<typeof caepReceiverProfile>;

/** The `aud` the Receiver expects: the profile's audience, else its baseUrl. */
export const audienceOf = (p: CaepReceiverProfile): string => p.audience ?? p.baseUrl;
