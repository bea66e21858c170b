import { defineSuite } from "../../src/engine/suite.js";
import { startWallet } from "../../mocks/wallet/index.js";
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
  async setup(profile) {
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
      provide: { ...provided, redirectUri: wallet.redirectUri },
      ...(profile.authorization?.browserIgnoresCertificate
        ? {
            notCertifiable: [
              "the browser step accepted the login pages' certificate unverified (authorization.browserIgnoresCertificate)",
            ],
          }
        : {}),
      // Issued credentials stay with the issuer: the interface has no way to withdraw them.
      teardown: () => wallet.close(),
    };
  },
});
