import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { HarnessError } from "../engine/errors.js";
import type { Results } from "./results.js";

const schema = JSON.parse(readFileSync(new URL("./results.schema.json", import.meta.url), "utf8")) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile<Results>(schema);

/** Checks a results document against results.schema.json; returns the problems, if any. */
export function resultsProblems(doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || "(top)"} ${e.message ?? ""}`);
}

/** Reads and validates a results.json. */
export function readResults(path: string): Results {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new HarnessError("IDC_RESULTS_INVALID", `${path}: cannot read results: ${(err as Error).message}`);
  }
  const problems = resultsProblems(doc);
  if (problems.length > 0) {
    throw new HarnessError(
      "IDC_RESULTS_INVALID",
      `${path} does not match results.schema.json:\n  - ${problems.join("\n  - ")}`,
    );
  }
  return doc as Results;
}
