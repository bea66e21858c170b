import { registerSection } from "../../src/engine/register.js";
import { asyncChecks } from "./checks/async.js";
import { streamChecks } from "./checks/stream.js";

registerSection("commands", "specs/002 A Asynchronous commands and streaming", [
  ...asyncChecks,
  ...streamChecks,
]);
