import { registerSection } from "../../src/engine/register.js";
import { collectionChecks } from "./checks/collection.js";
import { collectionClaimsChecks } from "./checks/collection-claims.js";
import { collectionInfoClaimsChecks } from "./checks/collection-info-claims.js";
import { collectionLocaleChecks } from "./checks/collection-locale.js";
import { collectionFilterChecks } from "./checks/collection-filters.js";
import { collectionAnchorChecks } from "./checks/collection-anchors.js";

registerSection("federation", "specs/001 Endpoints: Entity collection", collectionChecks);
registerSection(
  "federation",
  "specs/001 Endpoints: Entity collection (entity_claims; unsupported_claim)",
  collectionClaimsChecks,
);
registerSection(
  "federation",
  "specs/001 Endpoints: Entity collection (info_claims; Mapping of published metadata)",
  collectionInfoClaimsChecks,
);
registerSection(
  "federation",
  "specs/001 Endpoints: Entity collection (entity_type, trust_mark_type, query; Entity Info object)",
  collectionFilterChecks,
);
registerSection(
  "federation",
  "specs/001 Endpoints: Entity collection (trust_anchor; What the service does, Rules 2)",
  collectionAnchorChecks,
);
registerSection(
  "federation",
  "specs/001 Endpoints: Entity collection (locale; Language variants)",
  collectionLocaleChecks,
);
