import { registerSection } from "../../src/engine/register.js";
import { effectChecks } from "./checks/effects.js";

registerSection(
  "caep-receiver",
  "specs/002 B events: session-revoked and the access-reducing events take effect (probes)",
  effectChecks,
);
