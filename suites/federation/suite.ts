import { defineSuite } from "../../src/engine/suite.js";
import { catalog } from "./requirements.js";
import { federationProfile } from "./profile.js";
import { entityConfigurationChecks } from "./checks/entity-configuration.js";
import { fetchListChecks } from "./checks/fetch-list.js";
import { extendedListChecks, fromUnknownChecks } from "./checks/extended-list.js";
import { claimsChecks } from "./checks/claims.js";
import { eventsChecks } from "./checks/events.js";
import { changeChecks } from "./checks/change.js";
import { unknownParamChecks } from "./checks/unknown-params.js";
import { timestampChecks } from "./checks/timestamps.js";
import { collectionChecks } from "./checks/collection.js";
import { federationObservers } from "./observers.js";

/**
 * Federation listing, collection and events endpoints (specs/001) with the base federation
 * rules they stand on (public-spec-facts §2). The target is a Trust Anchor or an Intermediate;
 * idconform reads its Entity Configuration first and trusts only the keys it publishes there.
 * Work in progress (issue 13): the Entity Configuration, fetch and base list checks only.
 */
export default defineSuite({
  name: "federation",
  title: "Federation listing, collection and events endpoints",
  document: "specs/001",
  catalog,
  profileSchema: federationProfile,
  checks: [
    ...entityConfigurationChecks,
    ...fetchListChecks,
    ...extendedListChecks,
    ...fromUnknownChecks,
    ...claimsChecks,
    ...eventsChecks,
    ...changeChecks,
    ...unknownParamChecks,
    ...timestampChecks,
    ...collectionChecks,
  ],
  observers: federationObservers,
});
