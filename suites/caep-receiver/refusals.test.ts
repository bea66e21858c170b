import { registerSection } from "../../src/engine/register.js";
import { refusalChecks } from "./checks/refusals.js";

registerSection(
  "caep-receiver",
  "specs/002 B SET envelope, RFC 8935/8936: invalid SETs are refused",
  refusalChecks,
);
