import type { PrivacyConsent } from "~/domain/intake/data";

/*
 * Step 12, the consents, as the tests write them: once, so a new consent box or a change to the stored record
 * is made in one place.
 */

/** The four required consent boxes ticked, as step 12's form posts them. */
export const TICKED_CONSENTS = {
  allowAIDataProcessing: "on",
  allowDataForWebsiteGeneration: "on",
  understandObfuscation: "on",
  understandDataUsage: "on",
};

/** The consent record step 12 stores for a customer who ticked all four and chose AI-assisted drafting. */
export const storedConsent = (changes: Partial<PrivacyConsent> = {}): PrivacyConsent => ({
  allowAIDataProcessing: true,
  allowDataForWebsiteGeneration: true,
  dataRetentionPeriod: "30days",
  allowShowcase: false,
  understandObfuscation: true,
  understandDataUsage: true,
  aiOptOut: false,
  timestamp: "2026-11-01T00:00:00.000Z",
  version: "1.0",
  ...changes,
});
