import { registerSection } from "../../src/engine/register.js";
import { robustnessChecks } from "./checks/robustness.js";

registerSection(
  "caep-receiver",
  "SSF and RFC 8417: what a Receiver meets in the field is taken",
  robustnessChecks,
);
