import { registerSection } from "../../src/engine/register.js";
import { claimsChecks } from "./checks/claims.js";
import { timestampChecks } from "./checks/timestamps.js";

registerSection("federation", "specs/001 Endpoints: Extended subordinate listing (claims)", [
  ...claimsChecks,
  ...timestampChecks,
]);
