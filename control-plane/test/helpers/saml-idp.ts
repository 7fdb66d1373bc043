/**
 * A real SAML 2.0 identity provider for tests, built on samlify, on a free 127.0.0.1 port.
 * `GET /metadata` is its metadata; `GET /sso?SAMLRequest=…` (HTTP-Redirect) answers an
 * auto-submitting form that posts a signed response to the SP's ACS, as a real IdP's page does.
 * `response()` makes a response directly, with knobs for the failure cases: another signing key,
 * another audience, validity in the past, no InResponseTo (IdP-initiated).
 *
 * samlify needs an XML schema validator; this test IdP uses a permissive one (it only signs what
 * it builds itself). Production code never uses samlify: our SP is node-saml.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import * as samlify from 'samlify';

// samlify is CommonJS; its SamlLib re-export is visible only on the default export under ESM.
const SamlLib: typeof samlify.SamlLib = (samlify as any).SamlLib ?? (samlify as any).default.SamlLib;

samlify.setSchemaValidator({ validate: async () => 'skipped in the test IdP' });

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** A throwaway RSA key and self-signed certificate (PEM). */
function keyPair(dir: string, name: string): { key: string; cert: string } {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${name}`], { stdio: 'ignore' });
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
}

/** The SP's HTTP-POST assertion consumer service, read from its metadata. */
function acsOf(spMetadata: string): string {
  const acs = /<(?:\w+:)?AssertionConsumerService\b[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="([^"]+)"/.exec(spMetadata)?.[1]
    ?? /<(?:\w+:)?AssertionConsumerService\b[^>]*Location="([^"]+)"/.exec(spMetadata)?.[1];
  if (!acs) throw new Error('The SP metadata has no AssertionConsumerService');
  return acs;
}

export interface ResponseOptions {
  email: string;
  /** The AuthnRequest answered; omitted for an IdP-initiated response. */
  inResponseTo?: string;
  audience?: string;
  /** Sign with a key the SP does not know. */
  otherKey?: boolean;
  /** Shift every timestamp (ms; negative: in the past). */
  shiftMs?: number;
  /** Name another issuer (still signed with the IdP's key). */
  issuer?: string;
}

export interface SamlIdp {
  url: string;
  host: string;
  entityId: string;
  metadataXml: string;
  /** The email the next `/sso` request signs in. */
  user: string;
  /** Makes a base64 SAMLResponse for `spMetadata` (our SP's metadata XML). */
  response(spMetadata: string, o: ResponseOptions): Promise<string>;
  /** Every AuthnRequest ID seen at `/sso`. */
  requests: string[];
  close(): Promise<void>;
}

export async function startSamlIdp(spMetadataUrl: () => string): Promise<SamlIdp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saml-idp-'));
  const good = keyPair(dir, 'idp');
  const other = keyPair(dir, 'intruder');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${url}/metadata`;
  const make = (pair: { key: string; cert: string }) => samlify.IdentityProvider({
    entityID: entityId, privateKey: pair.key, signingCert: pair.cert, nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: REDIRECT, Location: `${url}/sso` }], isAssertionEncrypted: false,
  });
  const idp = make(good);
  const intruder = make(other);

  async function response(spMetadata: string, o: ResponseOptions): Promise<string> {
    const sp = samlify.ServiceProvider({ metadata: spMetadata });
    const signer = o.otherKey ? intruder : idp;
    const shift = o.shiftMs ?? 0;
    const now = new Date(Date.now() + shift);
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const acs = acsOf(spMetadata);
    const id = `_${randomUUID()}`;
    const result = await signer.createLoginResponse(sp, { extract: { request: { id: o.inResponseTo ?? '' } } } as any, 'post', { email: o.email }, (template: string) => {
      const t = o.inResponseTo ? template : template.replace(/ InResponseTo="\{InResponseTo\}"/g, '');
      return {
        id,
        context: SamlLib.replaceTagsByValue(t, {
          ID: id, AssertionID: `_${randomUUID()}`, Destination: acs, Audience: o.audience ?? sp.entityMeta.getEntityID(), EntityID: sp.entityMeta.getEntityID(),
          SubjectRecipient: acs, Issuer: o.issuer ?? entityId, IssueInstant: now.toISOString(), StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
          ConditionsNotBefore: now.toISOString(), ConditionsNotOnOrAfter: later, SubjectConfirmationDataNotOnOrAfter: later,
          NameIDFormat: EMAIL_FORMAT, NameID: o.email, InResponseTo: o.inResponseTo ?? '', AuthnStatement: '', AttributeStatement: '',
        }),
      };
    });
    return (result as { context: string }).context;
  }

  const saml: SamlIdp = {
    url, host: new URL(url).host, entityId, metadataXml: idp.getMetadata(), user: 'someone@example.com', response, requests: [],
    close: () => new Promise((resolve) => { fs.rmSync(dir, { recursive: true, force: true }); server.closeAllConnections(); server.close(() => resolve()); }),
  };
  server.on('request', async (req, res) => {
    try {
      const u = new URL(req.url ?? '/', url);
      if (u.pathname === '/metadata') {
        res.setHeader('content-type', 'application/samlmetadata+xml');
        res.end(saml.metadataXml);
        return;
      }
      if (u.pathname === '/sso') {
        const request = zlib.inflateRawSync(Buffer.from(u.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
        const requestId = /\sID="([^"]+)"/.exec(request)?.[1] ?? '';
        saml.requests.push(requestId);
        const spMetadata = await (await fetch(spMetadataUrl())).text();
        const acs = acsOf(spMetadata);
        const body = await response(spMetadata, { email: saml.user, inResponseTo: requestId });
        const relay = u.searchParams.get('RelayState') ?? '';
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(`<!doctype html><title>IdP</title><form method="post" action="${acs}"><input type="hidden" name="SAMLResponse" value="${body}"><input type="hidden" name="RelayState" value="${relay.replace(/"/g, '&quot;')}"><button>Continue</button></form><script>document.forms[0].submit()</script>`);
        return;
      }
      res.statusCode = 404;
      res.end('not found');
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  });
  return saml;
}
