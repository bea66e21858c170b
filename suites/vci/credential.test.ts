import { registerSection } from "../../src/engine/register.js";
import { credentialChecks } from "./checks/credential.js";
import { proofChecks } from "./checks/proofs.js";
import { batchChecks } from "./checks/batch.js";
import { encryptionChecks } from "./checks/encryption.js";

registerSection("vci", "specs/000 Credential Endpoint: issuance, proofs, batch, encryption", [
  ...credentialChecks,
  ...proofChecks,
  ...batchChecks,
  ...encryptionChecks,
]);
