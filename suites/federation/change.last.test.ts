import { registerSection } from "../../src/engine/register.js";
import { changeChecks } from "./checks/change.js";

// `.last`: it changes the federation's membership, so it runs after every other check, alone.
registerSection(
  "federation",
  "specs/001 What the service does, rule 4 (the extended list under change)",
  changeChecks,
);
