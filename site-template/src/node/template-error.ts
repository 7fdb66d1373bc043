/** The site template's one error type: a failure to build the client bundle (always the platform's fault). */
export class TemplateError extends Error {
  override name = 'TemplateError';
  /** Builder errors say whose fault they are; template errors are never the customer's. */
  readonly kind = 'app' as const;
}
