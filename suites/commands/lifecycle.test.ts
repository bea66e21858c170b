import { registerSection } from "../../src/engine/register.js";
import { lifecycleChecks } from "./checks/lifecycle.js";
import { effectChecks } from "./checks/effects.js";
import { modelChecks } from "./checks/model.js";

registerSection("commands", "specs/002 A States and transitions", [
  ...modelChecks,
  ...lifecycleChecks,
  ...effectChecks,
]);
