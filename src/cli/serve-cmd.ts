import { HarnessError } from "../engine/errors.js";
import { loadMock, loadTarget } from "../engine/discovery.js";
import { intArg, parse } from "./args.js";
import { MOCK_USAGE, mockUsage as usage } from "./mock-usage.js";
import { err } from "./output.js";

const TARGET_USAGE =
  "idconform target <suite> [--fault id ...] [--port n] [--members n] [--list-faults [--json]]";

/** Runs a reference target standalone until Ctrl-C, optionally with faults injected. */
export async function targetCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      fault: { type: "string", multiple: true },
      port: { type: "string" },
      members: { type: "string" },
      "list-faults": { type: "boolean" },
      json: { type: "boolean" },
    },
    TARGET_USAGE,
  );
  const [suite] = positionals;
  if (!suite || positionals.length > 1)
    throw new HarnessError("IDC_USAGE", `name one suite\n\nusage: ${TARGET_USAGE}`);
  const target = await loadTarget(suite);
  if (values["list-faults"]) {
    if (values.json) process.stdout.write(`${JSON.stringify(target.faults, null, 2)}\n`);
    else
      for (const f of target.faults)
        process.stdout.write(
          `${f.id.padEnd(28)} ${f.description}\n${"".padEnd(28)} breaks: ${[...f.breaks, ...(f.undecidable ?? []).map((u) => `${u} (error)`)].join(", ")}\n`,
        );
    return 0;
  }
  const known = new Set(target.faults.map((f) => f.id));
  for (const f of values.fault ?? []) {
    if (!known.has(f))
      throw new HarnessError(
        "IDC_FAULT_UNKNOWN",
        `target ${suite} has no fault "${f}"; list them with --list-faults`,
      );
  }
  const port = intArg("port", values.port, 0, 65535);
  if (values.members !== undefined && target.maxMembers === undefined)
    throw new HarnessError(
      "IDC_USAGE",
      `--members: the ${suite} target generates no members (only a target for scale runs does: federation)\n\nusage: ${TARGET_USAGE}`,
    );
  const members = intArg("members", values.members, 1, target.maxMembers ?? 0);
  const running = await target.start({
    faults: values.fault ?? [],
    ...(port !== undefined ? { port } : {}),
    ...(members !== undefined ? { members } : {}),
  });
  process.stdout.write(
    `${suite} reference target listening at ${running.url}${values.fault ? ` with faults: ${values.fault.join(", ")}` : ""}${members !== undefined ? ` with ${members} generated members` : ""}\n`,
  );
  process.stdout.write(
    `values for profiles/demo/${suite}.yaml:\n${Object.entries(running.env)
      .map(([k, v]) => `  export ${k}='${v}'`)
      .join("\n")}\n`,
  );
  await untilInterrupted();
  await running.close();
  return 0;
}

/**
 * Runs a counterparty mock standalone until Ctrl-C; with `--sign` (op) or `--proof` (wallet) it
 * serves nothing and prints one token signed as the run's mock signs them.
 */
export async function mockCommand(argv: string[]): Promise<number> {
  // The mock Transmitter has options of its own (--delivery, --public-url, --emit): mocks/transmitter/cli.ts;
  // so has the mock Receiver (--issuer, --authorization): mocks/receiver/cli.ts.
  if (argv[0] === "transmitter" || argv[0] === "receiver") {
    const m = (await loadMock(argv[0])) as { command?: (argv: string[]) => Promise<number> };
    if (m.command) return m.command(argv.slice(1));
  }
  const { values, positionals } = parse(
    argv,
    {
      port: { type: "string" },
      sign: { type: "string" },
      proof: { type: "boolean" },
      profile: { type: "string" },
      aud: { type: "string" },
      nonce: { type: "string" },
      alg: { type: "string" },
    },
    MOCK_USAGE,
  );
  const [role] = positionals;
  if (!role || positionals.length > 1) throw usage("name one role");
  if (values.sign !== undefined || values.proof) return (await import("./mint-cmd.js")).mint(role, values);
  const stray = (["profile", "aud", "nonce", "alg"] as const).find((k) => values[k] !== undefined);
  if (stray)
    throw usage(
      `--${stray} goes with ${stray === "profile" ? "--sign (mock op) or --proof (mock wallet)" : "--proof (mock wallet)"}`,
    );
  const mock = await loadMock(role);
  const port = intArg("port", values.port, 0, 65535);
  const running = await mock.start(port !== undefined ? { port } : {});
  process.stdout.write(`mock ${role} (${mock.description}) listening at ${running.url}\n`);
  // A mock that has something to register with the target (identifiers, public keys) says it.
  const info = (running as { info?: unknown }).info;
  if (typeof info === "string") process.stdout.write(info);
  const control = (running as { control?: { token: string } }).control;
  if (control)
    process.stdout.write(
      `control routes under ${running.url}/__idc/ need header x-idc-control: ${control.token}\n`,
    );
  await untilInterrupted();
  await running.close();
  return 0;
}

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      err("stopping");
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
}
