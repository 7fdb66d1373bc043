/** The SP metadata XML of an organization (public: URLs and our wish for signed assertions, no secret). */
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import type { Env } from '../env.ts';
import { spUrls } from './saml-sp.ts';

export function spMetadataXml(env: Env, orgId: string): string {
  const urls = spUrls(env, orgId);
  return generateServiceProviderMetadata({
    issuer: urls.entityId, callbackUrl: urls.acsUrl, wantAssertionsSigned: true,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  });
}
