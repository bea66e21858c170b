import { registerSection } from "../../src/engine/register.js";
import { deferredChecks } from "./checks/deferred.js";
import { notificationChecks } from "./checks/notification.js";
import { authorizationChecks } from "./checks/authorization.js";

registerSection("vci", "specs/000 Deferred issuance, notifications and the Authorization Code Flow", [
  ...deferredChecks,
  ...notificationChecks,
  ...authorizationChecks,
]);
