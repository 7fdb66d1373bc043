/**
 * Why an SSO sign-in was refused. Each code is stable: the callback and ACS endpoints send the
 * browser to `{dashboard}/sign-in?sso_error=<code>` (the page shows the message for the code;
 * the message never travels in the URL, so a crafted link cannot put words on our page), the
 * JSON calls answer `{ error: code, message }`, and the audit log records the code.
 */
import { SSO_ERROR_MESSAGES } from '../../dashboard-app/src/shared/sso-error-messages.ts';

export const SSO_ERRORS = SSO_ERROR_MESSAGES;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** A refused SSO sign-in: `detail` (what the library said) goes to the audit log, never to the browser. */
export class SsoFailure extends Error {
  readonly code: SsoErrorCode;
  readonly detail: string;
  /** The organization the attempt was for, when known (the audit entry goes there). */
  orgId?: string;
  constructor(code: SsoErrorCode, detail: string, options?: { cause?: unknown }) {
    super(SSO_ERRORS[code], options);
    this.name = 'SsoFailure';
    this.code = code;
    this.detail = detail.slice(0, 300);
  }
}
