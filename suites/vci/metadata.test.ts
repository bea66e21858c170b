import { registerSection } from "../../src/engine/register.js";
import { metadataChecks } from "./checks/metadata.js";
import { offerChecks } from "./checks/offer.js";

registerSection("vci", "specs/000 Issuer metadata, Authorization Server discovery and Credential Offers", [
  ...metadataChecks,
  ...offerChecks,
]);
