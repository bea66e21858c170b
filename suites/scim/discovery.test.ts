import { registerSection } from "../../src/engine/register.js";
import { discoveryChecks } from "./checks/discovery.js";

registerSection(
  "scim",
  "specs/002 C Endpoints: discovery (/ServiceProviderConfig, /ResourceTypes, /Schemas)",
  discoveryChecks,
);
