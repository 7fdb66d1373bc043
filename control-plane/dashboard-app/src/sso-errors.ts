/**
 * What the sign-in page says for each `?sso_error=<code>` the SSO callback and ACS endpoints
 * redirect with, from the catalogue the server answers with too (shared/sso-error-messages.ts). Only
 * codes travel in the URL, so a crafted link cannot put its own words on the page.
 */
import { SSO_ERROR_MESSAGES } from './shared/sso-error-messages.ts';

/** The message for the page's `sso_error` parameter, if any (unknown codes get the generic one). */
export function ssoErrorFromUrl(): string | undefined {
  const code = new URLSearchParams(location.search).get('sso_error');
  if (!code) return undefined;
  return (SSO_ERROR_MESSAGES as Record<string, string>)[code] ?? SSO_ERROR_MESSAGES.sso_failed;
}
