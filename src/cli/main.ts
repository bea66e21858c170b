import { HarnessError, isUsageError } from "../engine/errors.js";
import { HARNESS } from "../engine/version.js";
import { err, green, red } from "./output.js";

const HELP = `idconform ${HARNESS.version}: conformance test harness for identity protocols

usage:
  idconform run <profile.yaml> [--suite s] [--grep <id or prefix>] [--strict] [--seed n] [--out dir] [--shard i/n] [--compare old/results.json] [--certify]
  idconform demo [--suite s] [--out dir]           run the suites against the embedded reference targets
  idconform validate <profile.yaml>                check a profile and say what is wrong with it
  idconform target <suite> [--fault id ...] [--port n] [--members n] [--list-faults [--json]]
  idconform mock <role> [--port n]
  idconform mock op --sign <claims.json> --profile <profile.yaml>   print a Command Token signed with the profile's OP key
  idconform mock wallet --proof --profile <profile.yaml> [--aud <issuer>] [--nonce <c_nonce>] [--alg ES256|EdDSA]   print a key proof
  idconform requirements [--suite s] [--json]
  idconform report <results.json> [--allure] [--out dir]
  idconform report --merge <dir|results.json> ... [--out dir]
  idconform bundle <run dir> --key <jwk file|\${ENV}> --profile <profile.yaml> [--out run.idcb]
  idconform verify <run.idcb> (--jwks <file|https URL> | --entity <entity id>) [--allow-insecure-http] [--json]
  idconform diff <old results.json> <new results.json> [--markdown | --json]   exit 1 if a requirement regressed

exit codes: 0 every selected MUST passed · 1 a requirement failed (or a known failure now passes,
            or with --certify the run is not certifiable: an applicable MUST not exercised, say)
            2 bad usage or an invalid profile · 3 the harness could not run or decide (unreachable target,
            a setup problem of the profile: a hook, a probe, internal error)
`;

async function validateCommand(argv: string[]): Promise<number> {
  if (argv.length !== 1) throw new HarnessError("IDC_USAGE", "usage: idconform validate <profile.yaml>");
  // Loaded here, not at start-up: commands that read no profile (diff, report) skip zod and YAML.
  const { loadSuitesForProfile } = await import("../engine/discovery.js");
  const { loadProfile } = await import("../engine/profile.js");
  const p = loadProfile(argv[0]!, await loadSuitesForProfile(argv[0]!));
  for (const w of p.warnings) err(`warning: ${w}`);
  err(green(`${argv[0]}: valid profile "${p.name}" (suites: ${Object.keys(p.suites).join(", ")})`));
  return 0;
}

// Each command's module is imported only when it runs, so start-up pays for one command.
const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  run: async (a) => (await import("./run-cmd.js")).runCommand(a),
  demo: async (a) => (await import("./run-cmd.js")).demoCommand(a),
  validate: validateCommand,
  target: async (a) => (await import("./serve-cmd.js")).targetCommand(a),
  mock: async (a) => (await import("./serve-cmd.js")).mockCommand(a),
  requirements: async (a) => (await import("./info-cmd.js")).requirementsCommand(a),
  report: async (a) => (await import("./report-cmd.js")).reportCommand(a),
  bundle: async (a) => (await import("./bundle-cmd.js")).bundleCommand(a),
  verify: async (a) => (await import("./bundle-cmd.js")).verifyCommand(a),
  diff: async (a) => (await import("./diff-cmd.js")).diffCommand(a),
};

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === "help" || cmd === "--help" || cmd === "-h") {
    process.stdout.write(HELP);
    return cmd === undefined ? 2 : 0;
  }
  if (cmd === "--version" || cmd === "-v") {
    process.stdout.write(`${HARNESS.version}\n`);
    return 0;
  }
  const run = COMMANDS[cmd];
  if (!run) throw new HarnessError("IDC_USAGE", `unknown command "${cmd}"\n\n${HELP}`);
  return run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
  // A run's report is written: test workers left behind (a check that ignored its stop) or a
  // target's open connection must not keep the command from ending.
  if (["run", "demo"].includes(process.argv[2] ?? "")) setTimeout(() => process.exit(), 3_000).unref();
} catch (e) {
  if (e instanceof HarnessError) {
    err(red(`error ${e.code}: ${e.message}`));
    process.exitCode = isUsageError(e) ? 2 : 3;
  } else {
    err(red(`error IDC_INTERNAL: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
    process.exitCode = 3;
  }
}
