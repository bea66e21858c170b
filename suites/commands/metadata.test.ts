import { registerSection } from "../../src/engine/register.js";
import { metadataChecks } from "./checks/metadata.js";
import { metadataTenantChecks } from "./checks/metadata-tenant.js";
import { supportedChecks } from "./checks/supported.js";

registerSection("commands", "specs/002 A Metadata Response and commands_supported", [
  ...metadataChecks,
  ...metadataTenantChecks,
  ...supportedChecks,
]);
