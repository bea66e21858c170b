import { registerSection } from "../../src/engine/register.js";
import { verificationChecks } from "./checks/verification.js";

registerSection("caep-transmitter", "SSF 1.0 §8.1.4: verification", verificationChecks);
