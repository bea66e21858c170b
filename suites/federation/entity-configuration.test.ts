import { registerSection } from "../../src/engine/register.js";
import { entityConfigurationChecks } from "./checks/entity-configuration.js";

registerSection(
  "federation",
  "public-spec-facts §2 Entity Configuration; specs/001 Rules 1 (endpoint URLs)",
  entityConfigurationChecks,
);
