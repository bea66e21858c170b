import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./discovery.js";

/** The harness version, as package.json states it; every report records it. */
export const HARNESS = {
  name: "idconform",
  version: (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version,
} as const;
