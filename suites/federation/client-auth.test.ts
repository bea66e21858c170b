import { registerSection } from "../../src/engine/register.js";
import { clientAuthChecks } from "./checks/client-auth.js";

registerSection(
  "federation",
  "specs/001 Authentication; public-spec-facts §2 Endpoints (client authentication)",
  clientAuthChecks,
);
