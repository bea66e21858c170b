import { registerSection } from "../../src/engine/register.js";
import { resolveChecks } from "./checks/resolve.js";

registerSection(
  "federation",
  "public: OpenID Federation 1.0 Resolve Entity (Resolve Request, Resolve Response; Validating a Trust Chain; Metadata Policy)",
  resolveChecks,
);
