import { registerSection } from "../../src/engine/register.js";
import { extendedListChecks, fromUnknownChecks } from "./checks/extended-list.js";

registerSection("federation", "specs/001 Endpoints: Extended subordinate listing (pagination)", [
  ...extendedListChecks,
  ...fromUnknownChecks,
]);
