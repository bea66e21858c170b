import { registerSection } from "../../src/engine/register.js";
import { acceptanceChecks } from "./checks/acceptance.js";

registerSection(
  "caep-receiver",
  "specs/002 B events and SET envelope: valid SETs are accepted",
  acceptanceChecks,
);
