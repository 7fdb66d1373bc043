/**
 * The words for each code a refused single sign-on carries: the server answers them in JSON
 * errors and records the code; the sign-in page shows them for `?sso_error=<code>` (only the
 * code travels in the URL, so a crafted link cannot put its own words on the page). One
 * catalogue for both sides: it holds text only, so the browser bundle and the server can import
 * it alike.
 */
export const SSO_ERROR_MESSAGES = {
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
} as const;
