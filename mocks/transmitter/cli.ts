import { existsSync, readFileSync, statSync } from "node:fs";
import { HarnessError } from "../../src/engine/errors.js";
import { intArg, parse } from "../../src/cli/args.js";
import { err } from "../../src/cli/output.js";
import { CAEP_EVENT_NAMES, SUBJECT_FORMATS, subjectProblems } from "../../src/protocols/caep.js";
import { TransmitterClient } from "./client.js";
import { startTransmitter } from "./index.js";
import type { DeliveryKind } from "./types.js";

export const TRANSMITTER_USAGE = `idconform mock transmitter [--port n] [--host h] [--public-url u] [--issuer u] [--delivery push|poll] [--receiver-token <t|\${ENV}>] [--audience a]
       idconform mock transmitter --emit <event> --subject <format>:<value> --url <mock URL> --control-token <t|\${ENV}> [--stream-id id] [--claims <json|file>]`;

const usage = (message: string): HarnessError =>
  new HarnessError("IDC_USAGE", `${message}\n\nusage: ${TRANSMITTER_USAGE}`);

const SERVE_ONLY = [
  "port",
  "host",
  "public-url",
  "issuer",
  "delivery",
  "receiver-token",
  "audience",
] as const;
const EMIT_ONLY = ["subject", "url", "control-token", "stream-id", "claims"] as const;
const MAX_CLAIMS = 256 * 1024;

/** A secret given as `${NAME}` is read from the environment, so it stays out of the shell history. */
function secret(name: string, v: string): string {
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(v);
  if (!m) return v;
  const value = process.env[m[1]!];
  if (value === undefined || value === "")
    throw usage(`--${name}: the environment variable ${m[1]} is not set`);
  return value;
}

/** Members of the one- and two-member subject formats, in the order `<format>:<a>,<b>` gives them. */
const SIMPLE = new Set(["account", "email", "opaque", "phone_number", "did", "uri"]);
const PAIRS = new Set(["iss_sub", "jwt_id", "saml_assertion_id"]);

/**
 * A `sub_id` from the command line: a JSON object as it is, or `<format>:<value>` for the
 * one-member formats (`email:alice@example.com`, `opaque:abc`), `<format>:<a>,<b>` for the
 * two-member ones (`iss_sub:https://idp.example.com/,alice`, split at the last comma) and
 * `ip-addresses:<ip>,<ip>`. `complex` and `aliases` are given as JSON.
 */
export function parseSubject(v: string): Record<string, unknown> {
  if (v.trimStart().startsWith("{")) {
    let s: unknown;
    try {
      s = JSON.parse(v) as unknown;
    } catch {
      throw usage("--subject: the value starts with { but is not JSON");
    }
    if (s === null || typeof s !== "object" || Array.isArray(s)) throw usage("--subject: not a JSON object");
    return s as Record<string, unknown>;
  }
  const i = v.indexOf(":");
  const format = i > 0 ? v.slice(0, i) : "";
  const value = v.slice(i + 1);
  const members = SUBJECT_FORMATS[format];
  if (i <= 0 || value === "")
    throw usage(
      `--subject: expected <format>:<value> (email:alice@example.com) or a JSON sub_id, got "${v}"`,
    );
  if (SIMPLE.has(format)) return { format, [members![0]!]: value };
  if (PAIRS.has(format)) {
    const j = value.lastIndexOf(",");
    if (j <= 0 || j === value.length - 1) throw usage(`--subject: ${format} takes <${members!.join(">,<")}>`);
    return { format, [members![0]!]: value.slice(0, j), [members![1]!]: value.slice(j + 1) };
  }
  if (format === "ip-addresses") return { format, "ip-addresses": value.split(",").filter((x) => x !== "") };
  throw usage(
    `--subject: give ${format === "complex" || format === "aliases" ? `a ${format} subject` : `format "${format}"`} as JSON ({"format":...}); <format>:<value> knows ${[...SIMPLE, ...PAIRS, "ip-addresses"].join(", ")}`,
  );
}

function readClaims(v: string): Record<string, unknown> {
  let text = v;
  if (!v.trimStart().startsWith("{")) {
    if (!existsSync(v) || !statSync(v).isFile()) throw usage(`--claims: not JSON and no such file: ${v}`);
    if (statSync(v).size > MAX_CLAIMS) throw usage(`--claims: ${v} is larger than ${MAX_CLAIMS} bytes`);
    text = readFileSync(v, "utf8");
  }
  let c: unknown;
  try {
    c = JSON.parse(text) as unknown;
  } catch {
    throw usage("--claims: not JSON; give the event's claims as a JSON object");
  }
  if (c === null || typeof c !== "object" || Array.isArray(c)) throw usage("--claims: not a JSON object");
  return c as Record<string, unknown>;
}

/**
 * `idconform mock transmitter`: serves the mock Transmitter until Ctrl-C (printing its URL,
 * discovery URL, control token and how to emit), or with `--emit` makes a running one sign
 * and deliver one event. Secrets given (the receiver token) are never printed.
 */
export async function transmitterCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      port: { type: "string" },
      host: { type: "string" },
      "public-url": { type: "string" },
      issuer: { type: "string" },
      delivery: { type: "string" },
      "receiver-token": { type: "string" },
      audience: { type: "string" },
      emit: { type: "string" },
      subject: { type: "string" },
      url: { type: "string" },
      "control-token": { type: "string" },
      "stream-id": { type: "string" },
      claims: { type: "string" },
    },
    TRANSMITTER_USAGE,
  );
  if (positionals.length > 0) throw usage(`unexpected argument "${positionals[0]}"`);
  if (values.emit !== undefined) {
    const stray = SERVE_ONLY.find((k) => values[k] !== undefined);
    if (stray) throw usage(`--${stray} serves a mock; --emit talks to a running one`);
    return emit(values.emit, values);
  }
  const stray = EMIT_ONLY.find((k) => values[k] !== undefined);
  if (stray) throw usage(`--${stray} goes with --emit`);
  const port = intArg("port", values.port, 0, 65535);
  const delivery = values.delivery;
  if (delivery !== undefined && delivery !== "push" && delivery !== "poll")
    throw usage(`--delivery: push or poll, got "${delivery}"`);
  for (const k of ["public-url", "issuer"] as const) {
    const u = values[k];
    if (u !== undefined && (!URL.canParse(u) || !/^https?:$/.test(new URL(u).protocol)))
      throw usage(`--${k}: expected an absolute http(s) URL, got "${u}"`);
  }
  const t = await startTransmitter({
    ...(port !== undefined ? { port } : {}),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values["public-url"] !== undefined ? { publicUrl: values["public-url"] } : {}),
    ...(values.issuer !== undefined ? { issuer: values.issuer } : {}),
    ...(delivery !== undefined ? { deliveryMethods: [delivery as DeliveryKind] } : {}),
    ...(values["receiver-token"] !== undefined
      ? { receiverToken: secret("receiver-token", values["receiver-token"]) }
      : {}),
    ...(values.audience !== undefined ? { audience: values.audience } : {}),
  });
  process.stdout.write(`mock transmitter listening at ${t.url}\n${t.info}`);
  await new Promise<void>((resolve) => {
    const done = (): void => {
      err("stopping");
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await t.close();
  return 0;
}

async function emit(
  event: string,
  v: { subject?: string; url?: string; "control-token"?: string; "stream-id"?: string; claims?: string },
): Promise<number> {
  const known = event === "verification" || (CAEP_EVENT_NAMES as readonly string[]).includes(event);
  if (!known && !URL.canParse(event))
    throw usage(
      `--emit: one of ${[...CAEP_EVENT_NAMES, "verification"].join(", ")} or an event type URI, got "${event}"`,
    );
  if (v.url === undefined) throw usage("--emit needs --url: the running mock transmitter's URL");
  if (!URL.canParse(v.url)) throw usage(`--url: expected the mock's URL, got "${v.url}"`);
  if (v["control-token"] === undefined)
    throw usage("--emit needs --control-token (printed when the mock started)");
  if (v.subject === undefined && event !== "verification")
    throw usage("--emit needs --subject <format>:<value> (email:alice@example.com)");
  const subject = v.subject !== undefined ? parseSubject(v.subject) : undefined;
  if (subject) for (const p of subjectProblems(subject)) err(`warning: the subject is not valid: ${p}`);
  const client = new TransmitterClient(v.url.replace(/\/$/, ""), secret("control-token", v["control-token"]));
  let a;
  try {
    a = await client.emit({
      event,
      ...(subject ? { subject } : {}),
      ...(v.claims !== undefined ? { claims: readClaims(v.claims) } : {}),
      ...(v["stream-id"] !== undefined ? { streamId: v["stream-id"] } : {}),
    });
  } catch (e) {
    throw new HarnessError(
      "IDC_HTTP_FAILED",
      `the mock transmitter refused or could not be reached: ${(e as Error).message}`,
    );
  }
  process.stdout.write(`${a.token}\n`);
  const d = a.delivery;
  const outcome =
    d.method === "poll"
      ? "queued for the Receiver's next poll"
      : d.error !== undefined
        ? d.error
        : `pushed: the Receiver answered ${d.status}${d.body ? ` ${d.body.slice(0, 300)}` : ""}`;
  err(`${event} (jti ${a.jti}) on stream ${a.streamId}: ${outcome}`);
  return d.error !== undefined ? 3 : 0;
}
