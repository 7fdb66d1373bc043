/**
 * What the sign-in page says for each `?sso_error=<code>` the SSO callback and ACS endpoints
 * redirect with (the server's control-plane/src/sso/sso-error.ts holds the same texts). Only
 * codes travel in the URL, so a crafted link cannot put its own words on the page.
 */
export const SSO_ERROR_MESSAGES: Record<string, string> = {
  sso_unknown_domain: 'No organization uses single sign-on for this email domain; sign in with your password, or ask your administrator which address to use.',
  sso_not_configured: 'Single sign-on is not set up for this organization; sign in with your password.',
  sso_invalid_signature: 'The identity provider\'s answer is not signed with the certificate configured for this organization; ask your administrator to check the SSO settings.',
  sso_wrong_audience: 'The identity provider\'s answer was meant for another service (wrong audience); ask your administrator to check the SSO settings.',
  sso_expired: 'The identity provider\'s answer has expired or is not valid yet; sign in again.',
  sso_replayed: 'This sign-in answer was already used; sign in again.',
  sso_unsolicited: 'This sign-in answer does not belong to a sign-in started here, or it is too old; sign in again from the sign-in page.',
  sso_wrong_issuer: 'The answer came from another identity provider than the one configured for this organization; ask your administrator to check the SSO settings.',
  sso_state_mismatch: 'This sign-in was started in another browser or has expired (state mismatch); sign in again.',
  sso_nonce_mismatch: 'The identity provider\'s ID token does not belong to this sign-in (nonce mismatch); sign in again.',
  sso_code_rejected: 'The identity provider refused to finish this sign-in (the PKCE verifier or the code was not accepted); sign in again.',
  sso_idp_refused: 'The identity provider did not sign you in; try again or ask your administrator.',
  sso_email_not_allowed: 'The identity provider gave an email address outside this organization\'s verified domains; ask your administrator.',
  sso_member_deactivated: 'Your account is deactivated in this organization; ask your administrator.',
  sso_idp_unreachable: 'The identity provider could not be reached; try again in a moment.',
  plan_required: 'Single sign-on needs the Team plan; ask an owner of your organization to upgrade.',
  plan_limit_reached: 'Your organization has no dashboard seat left for a new member; ask an owner to upgrade the plan or free a seat.',
  sso_failed: 'Single sign-on failed; try again, or ask your administrator.',
};

/** The message for the page's `sso_error` parameter, if any (unknown codes get the generic one). */
export function ssoErrorFromUrl(): string | undefined {
  const code = new URLSearchParams(location.search).get('sso_error');
  if (!code) return undefined;
  return SSO_ERROR_MESSAGES[code] ?? SSO_ERROR_MESSAGES.sso_failed;
}
