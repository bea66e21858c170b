import { defineSuite } from "../../src/engine/suite.js";
import { identifierWording } from "../../src/protocols/vci.js";
import { readFileSync } from "node:fs";
import { startWallet } from "../../mocks/wallet/index.js";
import { spkiHashes } from "../../mocks/wallet/spki.js";
import { catalog } from "./requirements.js";
import { vciProfile } from "./profile.js";
import type { VciProvided } from "./client.js";
import { metadataChecks } from "./checks/metadata.js";
import { offerChecks } from "./checks/offer.js";
import { tokenChecks } from "./checks/token.js";
import { nonceChecks } from "./checks/nonce.js";
import { credentialChecks } from "./checks/credential.js";
import { proofChecks } from "./checks/proofs.js";
import { batchChecks } from "./checks/batch.js";
import { encryptionChecks } from "./checks/encryption.js";
import { deferredChecks } from "./checks/deferred.js";
import { notificationChecks } from "./checks/notification.js";
import { authorizationChecks } from "./checks/authorization.js";
import { vciObservers } from "./observers.js";

/**
 * Credential issuance (specs/000): idconform plays the Wallet against a Credential Issuer
 * and its Authorization Server. The setup starts the mock wallet (Credential Offer
 * Endpoint, redirect_uri).
 */
export default defineSuite({
  name: "vci",
  title: "Credential issuance (Credential Issuer)",
  document: "specs/000",
  catalog,
  profileSchema: vciProfile,
  checks: [
    ...metadataChecks,
    ...offerChecks,
    ...tokenChecks,
    ...nonceChecks,
    ...credentialChecks,
    ...proofChecks,
    ...batchChecks,
    ...encryptionChecks,
    ...deferredChecks,
    ...notificationChecks,
    ...authorizationChecks,
  ],
  observers: vciObservers,
  // Texts and titles name the document's std identifiers; a run renders them in its own set.
  wording: (profile) => identifierWording(profile.identifiers),
  async setup(profile, run) {
    const wallet = await startWallet({
      ...(profile.wallet.port !== undefined ? { port: profile.wallet.port } : {}),
      ...(profile.wallet.host ? { host: profile.wallet.host } : {}),
      ...(profile.wallet.publicUrl ? { publicUrl: profile.wallet.publicUrl } : {}),
    });
    const provided: VciProvided = {
      walletUrl: wallet.url,
      walletPublicUrl: wallet.offerEndpoint.replace(/\/offer$/, ""),
      controlToken: wallet.control.token,
    };
    return {
      provide: {
        ...provided,
        redirectUri: wallet.redirectUri,
        // The browser step trusts the profile's private CA, as the harness's requests do.
        browserPins: run.client.caFile ? spkiHashes(readFileSync(run.client.caFile, "utf8")) : [],
      },
      // Issued credentials stay with the issuer: the interface has no way to withdraw them.
      teardown: () => wallet.close(),
    };
  },
});
