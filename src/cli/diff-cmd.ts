import { HarnessError } from "../engine/errors.js";
import { diffResults, readResultsForDiff } from "../report/diff.js";
import { diffMarkdown, diffText } from "../report/diff-format.js";
import { parse } from "./args.js";
import { err, red } from "./output.js";

const USAGE = "idconform diff <old results.json|dir> <new results.json|dir> [--markdown | --json]";

/**
 * Compares two runs requirement by requirement and prints what regressed, was fixed, changed
 * verdict or coverage, appeared or disappeared (on stdout). Exit 1 when a requirement regressed,
 * 2 when an input is not a results.json.
 */
export async function diffCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { markdown: { type: "boolean" }, json: { type: "boolean" } },
    USAGE,
  );
  if (positionals.length !== 2)
    throw new HarnessError("IDC_USAGE", `name the old and the new results.json\n\nusage: ${USAGE}`);
  if (values.markdown && values.json)
    throw new HarnessError("IDC_USAGE", `--markdown or --json, not both\n\nusage: ${USAGE}`);
  let older, newer;
  try {
    older = readResultsForDiff(positionals[0]!);
    newer = readResultsForDiff(positionals[1]!);
  } catch (e) {
    // A file that is not a results.json is bad input: exit 2, with its own code.
    if (!(e instanceof HarnessError) || e.code !== "IDC_RESULTS_INVALID") throw e;
    err(red(`error ${e.code}: ${e.message}`));
    return 2;
  }
  const d = diffResults(older, newer);
  const out = values.json
    ? `${JSON.stringify(d, null, 2)}\n`
    : values.markdown
      ? diffMarkdown(d)
      : diffText(d);
  // A reader that goes away early (`| head`) ends the output, not the command's verdict.
  process.stdout.on("error", () => undefined);
  await new Promise<void>((resolve) => process.stdout.write(out, () => resolve()));
  return d.exitCode;
}
