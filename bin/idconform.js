#!/usr/bin/env node
// Entry point of the idconform command: loads the TypeScript sources through tsx.
import { register } from "tsx/esm/api";

// vitest's node API is large and plain JavaScript: loading it before tsx's hooks are in place
// spares each of its modules a round trip through them (about half of a run's start-up).
if (["run", "demo"].includes(process.argv[2] ?? "")) await import("vitest/node");
register();
await import("../src/cli/main.ts");
