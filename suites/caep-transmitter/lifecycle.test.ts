import { registerSection } from "../../src/engine/register.js";
import { lifecycleChecks } from "./checks/lifecycle.js";

registerSection(
  "caep-transmitter",
  "SSF 1.0 §8.1.2 stream status and §8.1.3 subjects: the stream lifecycle, model-based",
  lifecycleChecks,
);
