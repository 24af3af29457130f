import type { LaunchCheck } from "./launch";

export interface LaunchFigures {
  skippedForConsent: number;
  skippedForEmptyVariables: number;
  toSend: number;
  exceedsTier: boolean;
  sendableNow: number;
  estimatedDurationSeconds: number;
}

/**
 * The launch check's figures for the consent choice in the dialog. The server counted them with the
 * campaign's stored choice; ticking "include unknown consent" moves those contacts from skipped for
 * consent to sent, or to skipped for an empty blank.
 */
export function launchFigures(check: LaunchCheck, includeUnknown: boolean): LaunchFigures {
  const { consent } = check;
  const unknownSent = (include: boolean) => !consent.marketing || include;
  const skippedForConsent = unknownSent(includeUnknown) ? 0 : consent.unknown;
  const unknownEmpty = (include: boolean) => (unknownSent(include) ? consent.unknownWithEmptyVariables : 0);
  const skippedForEmptyVariables = check.skippedForEmptyVariables - unknownEmpty(consent.includeUnknown) + unknownEmpty(includeUnknown);
  const toSend = Math.max(0, check.audienceCount - skippedForConsent - skippedForEmptyVariables);
  const available = check.tier.available;
  const exceedsTier = available !== null && toSend > available;
  const sendableNow = exceedsTier ? available : toSend;
  return { skippedForConsent, skippedForEmptyVariables, toSend, exceedsTier, sendableNow, estimatedDurationSeconds: Math.ceil(sendableNow / Math.max(1, check.sendRatePerSecond)) };
}
