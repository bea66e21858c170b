import { registerSection } from "../../src/engine/register.js";
import { filterChecks } from "./checks/filters.js";

registerSection(
  "federation",
  "specs/001 Endpoints: Extended subordinate listing (entity_type, trust_mark_type); public-spec-facts §2 List (filters: trust_marked, intermediate; refusals)",
  filterChecks,
);
