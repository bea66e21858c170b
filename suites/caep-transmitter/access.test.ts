import { registerSection } from "../../src/engine/register.js";
import { accessChecks } from "./checks/access.js";

registerSection(
  "caep-transmitter",
  "SSF 1.0 §8: stream management authorization and isolation between Receivers",
  accessChecks,
);
