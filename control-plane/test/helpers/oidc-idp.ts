/**
 * A real OpenID provider for tests (oidc-provider 8) on a free 127.0.0.1 port: one confidential
 * client (`client_secret_post`), PKCE required, email claims. Its interaction page signs in
 * `idp.user` at once (no form) and grants the requested scopes, so a browser or a test's
 * redirect-following fetch goes straight back to the relying party. `idp.groups` is the `groups`
 * claim of whoever signs in (scope `groups`), for readers of sites with reader authentication.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcIdp {
  issuer: string;
  /** `host:port`, for the control plane's `fetchAllowHosts`. */
  host: string;
  clientId: string;
  clientSecret: string;
  /** The email the next interaction signs in. */
  user: string;
  /** The `groups` claim of the user (scope `groups`). */
  groups: string[];
  close(): Promise<void>;
}

export async function startOidcIdp(redirectUri: string | string[]): Promise<OidcIdp> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const idp: OidcIdp = {
    issuer, host: `127.0.0.1:${port}`, clientId: 'folio-dashboard', clientSecret: 'a-test-client-secret-of-enough-length', user: 'someone@example.com', groups: [],
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  const provider = new Provider(issuer, {
    clients: [{ client_id: idp.clientId, client_secret: idp.clientSecret, redirect_uris: [redirectUri].flat(), grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub, email: sub, email_verified: true, groups: idp.groups }) }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key'] },
    // Every client is first-party here: no consent screen.
    loadExistingGrant: async (ctx: any) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
  } as any);
  const callback = provider.callback();
  server.on('request', async (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      try {
        await provider.interactionFinished(req, res, { login: { accountId: idp.user } }, { mergeWithLastSubmission: false });
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
      return;
    }
    callback(req, res);
  });
  return idp;
}
