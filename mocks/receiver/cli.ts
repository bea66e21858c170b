import { HarnessError } from "../../src/engine/errors.js";
import { intArg, parse } from "../../src/cli/args.js";
import { err } from "../../src/cli/output.js";
import { startReceiver } from "./index.js";
import { PushPrinter } from "./printer.js";

export const RECEIVER_USAGE = `idconform mock receiver [--port n] [--host h] [--public-url u] [--issuer <transmitter issuer>] [--authorization <value|\${ENV}>]`;

const usage = (message: string): HarnessError =>
  new HarnessError("IDC_USAGE", `${message}\n\nusage: ${RECEIVER_USAGE}`);

/** A secret given as `${NAME}` is read from the environment, so it stays out of the shell history. */
function secret(name: string, v: string): string {
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(v);
  if (!m) return v;
  const value = process.env[m[1]!];
  if (value === undefined || value === "")
    throw usage(`--${name}: the environment variable ${m[1]} is not set`);
  return value;
}

/**
 * `idconform mock receiver`: serves a push endpoint until Ctrl-C and prints one line per SET
 * it receives with its verdict (jti, event type, problems); under a flood at most 20 lines a
 * second and a summary line per second. With `--issuer` it verifies signatures with the
 * Transmitter's jwks_uri keys and judges `iss`. The Authorization given is never printed.
 * `io` lets a test read the output and stop it (default: stdout, until Ctrl-C).
 */
export async function receiverCommand(
  argv: string[],
  io: { out?: (s: string) => void; until?: Promise<void> } = {},
): Promise<number> {
  const out = io.out ?? ((s: string) => void process.stdout.write(s));
  const { values, positionals } = parse(
    argv,
    {
      port: { type: "string" },
      host: { type: "string" },
      "public-url": { type: "string" },
      issuer: { type: "string" },
      authorization: { type: "string" },
    },
    RECEIVER_USAGE,
  );
  if (positionals.length > 0) throw usage(`unexpected argument "${positionals[0]}"`);
  const port = intArg("port", values.port, 0, 65535);
  for (const k of ["public-url", "issuer"] as const) {
    const u = values[k];
    if (u !== undefined && (!URL.canParse(u) || !/^https?:$/.test(new URL(u).protocol)))
      throw usage(`--${k}: expected an absolute http(s) URL, got "${u}"`);
  }
  const authorization =
    values.authorization !== undefined ? secret("authorization", values.authorization) : undefined;
  if (authorization !== undefined && (authorization === "" || /[\r\n]/.test(authorization)))
    throw usage("--authorization: give the whole header value, on one line (Bearer <token>)");
  const printer = new PushPrinter((line) => out(`${line}\n`));
  const r = await startReceiver({
    ...(port !== undefined ? { port } : {}),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values["public-url"] !== undefined ? { publicUrl: values["public-url"] } : {}),
    ...(values.issuer !== undefined ? { issuer: values.issuer } : {}),
    ...(authorization !== undefined ? { authorization } : {}),
    defaultSlot: true,
    onPush: (n) => printer.push(n),
    onKeyProblem: (m) => err(`warning: ${m}`),
  });
  out(`mock receiver listening at ${r.url}\n${r.info}`);
  const timer = setInterval(() => printer.tick(), 1000);
  timer.unref();
  await (io.until ??
    new Promise<void>((resolve) => {
      const done = (): void => {
        err("stopping");
        resolve();
      };
      process.once("SIGINT", done);
      process.once("SIGTERM", done);
    }));
  clearInterval(timer);
  printer.tick();
  await r.close();
  return 0;
}
