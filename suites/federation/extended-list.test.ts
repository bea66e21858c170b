import { registerSection } from "../../src/engine/register.js";
import { extendedListChecks, fromUnknownChecks, practicalLimitChecks } from "./checks/extended-list.js";

registerSection("federation", "specs/001 Endpoints: Extended subordinate listing (pagination)", [
  ...extendedListChecks,
  ...fromUnknownChecks,
  ...practicalLimitChecks,
]);
