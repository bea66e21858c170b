import { defineSuite } from "../../src/engine/suite.js";
import { catalog } from "./requirements.js";
import { federationProfile } from "./profile.js";
import { entityConfigurationChecks } from "./checks/entity-configuration.js";
import { fetchListChecks } from "./checks/fetch-list.js";
import { extendedListChecks, fromUnknownChecks, practicalLimitChecks } from "./checks/extended-list.js";
import { claimsChecks } from "./checks/claims.js";
import { eventsChecks } from "./checks/events.js";
import { changeChecks } from "./checks/change.js";
import { unknownParamChecks } from "./checks/unknown-params.js";
import { timestampChecks } from "./checks/timestamps.js";
import { filterChecks } from "./checks/filters.js";
import { collectionChecks } from "./checks/collection.js";
import { collectionClaimsChecks } from "./checks/collection-claims.js";
import { collectionInfoClaimsChecks } from "./checks/collection-info-claims.js";
import { collectionLocaleChecks } from "./checks/collection-locale.js";
import { collectionFilterChecks } from "./checks/collection-filters.js";
import { collectionAnchorChecks } from "./checks/collection-anchors.js";
import { federationObservers } from "./observers.js";
import { clientAuthChecks } from "./checks/client-auth.js";
import { resolveChecks } from "./checks/resolve.js";
import { federationSetup } from "./setup.js";

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
    ...practicalLimitChecks,
    ...claimsChecks,
    ...eventsChecks,
    ...changeChecks,
    ...unknownParamChecks,
    ...timestampChecks,
    ...filterChecks,
    ...collectionChecks,
    ...collectionClaimsChecks,
    ...collectionInfoClaimsChecks,
    ...collectionLocaleChecks,
    ...collectionFilterChecks,
    ...collectionAnchorChecks,
    ...clientAuthChecks,
    ...resolveChecks,
  ],
  observers: federationObservers,
  setup: federationSetup,
});
