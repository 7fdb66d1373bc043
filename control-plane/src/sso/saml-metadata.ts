/**
 * Reads what the SP needs from a SAML 2.0 IdP's metadata: its entity id, its HTTP-Redirect
 * single sign-on URL and its signing certificates. Parsed with jsdom's XML parser (no DTDs or
 * external entities are resolved).
 */
import { JSDOM } from 'jsdom';
import { invalid } from '../errors.ts';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** Largest metadata document accepted. */
export const MAX_METADATA_BYTES = 512 * 1024;

export interface IdpMetadata { entityId: string; ssoUrl: string; certs: string[] }

/** Parses IdP metadata; 400 `invalid_request` on `field` naming what is missing. */
export function parseIdpMetadata(xml: string, field: string): IdpMetadata {
  if (Buffer.byteLength(xml) > MAX_METADATA_BYTES) throw invalid(field, `must be at most ${MAX_METADATA_BYTES / 1024} KB`);
  if (/<!DOCTYPE/i.test(xml)) throw invalid(field, 'Unexpected DOCTYPE; expected plain SAML metadata XML');
  const doc = new new JSDOM('').window.DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) throw invalid(field, 'is not well-formed XML');
  const entity = doc.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  const idp = entity?.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!entity || !idp) throw invalid(field, 'Unexpected document; expected SAML metadata with an EntityDescriptor holding an IDPSSODescriptor');
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId) throw invalid(field, 'EntityDescriptor has no entityID');
  const services = [...idp.getElementsByTagNameNS(MD, 'SingleSignOnService')];
  const sso = services.find((s) => s.getAttribute('Binding') === REDIRECT) ?? services.find((s) => s.getAttribute('Binding') === POST);
  const ssoUrl = sso?.getAttribute('Location') ?? '';
  if (!/^https?:\/\//.test(ssoUrl)) throw invalid(field, 'has no SingleSignOnService with the HTTP-Redirect binding and an http(s) Location');
  const certs = [...idp.getElementsByTagNameNS(MD, 'KeyDescriptor')]
    .filter((k) => (k.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((k) => [...k.getElementsByTagNameNS(DS, 'X509Certificate')].map((c) => (c.textContent ?? '').replace(/\s+/g, '')))
    .filter(Boolean);
  if (!certs.length) throw invalid(field, 'has no signing certificate (KeyDescriptor use="signing" with an X509Certificate)');
  return { entityId, ssoUrl, certs: [...new Set(certs)] };
}
