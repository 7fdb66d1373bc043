import { generateKeyPairSync, verify } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { parseEnv } from '../../src/env.ts';
import { appJwt, githubAppOf } from '../../src/github/github-app.ts';

t.test('GitHub App configuration', async (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const app = { GITHUB_APP_ID: '12345', GITHUB_APP_SLUG: 'folio-docs', GITHUB_APP_CLIENT_ID: 'Iv1.abc', GITHUB_APP_CLIENT_SECRET: 'shh' };
  const parseError = (vars: Record<string, string>) => { try { parseEnv(vars); return ''; } catch (err) { return (err as Error).message; } };

  t.test('should turn GitHub off without the App and refuse half a configuration', async (t) => {
    t.equal(githubAppOf(parseEnv({})), null);
    t.equal(parseError({ GITHUB_APP_ID: '12345' }), 'Invalid environment:\nGITHUB_APP_PRIVATE_KEY: Required with the other GITHUB_APP_* variables; set GITHUB_APP_PRIVATE_KEY, GITHUB_APP_SLUG, GITHUB_APP_CLIENT_ID, GITHUB_APP_CLIENT_SECRET, or none of them to turn GitHub off');
    t.equal(parseError({ GITHUB_TOKEN: 'ghp_x' }), '', 'a leftover GITHUB_TOKEN is ignored, never used');
  });

  t.test('should read the private key as PEM text, with \\n escapes, or from a file, and refuse anything else', async (t) => {
    const direct = githubAppOf(parseEnv({ ...app, GITHUB_APP_PRIVATE_KEY: pem, GITHUB_API_URL: 'https://ghe.example.com/api/v3/' }));
    t.same(direct && { ...direct, privateKey: direct.privateKey.trim() }, {
      appId: '12345', privateKey: pem.trim(), slug: 'folio-docs', clientId: 'Iv1.abc', clientSecret: 'shh', apiUrl: 'https://ghe.example.com/api/v3', webUrl: 'https://github.com',
    });
    t.equal(githubAppOf(parseEnv({ ...app, GITHUB_APP_PRIVATE_KEY: pem.trim().replace(/\n/g, '\\n') }))?.privateKey, pem.trim());
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-key-')), 'app.pem');
    fs.writeFileSync(file, pem);
    t.teardown(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
    t.equal(githubAppOf(parseEnv({ ...app, GITHUB_APP_PRIVATE_KEY: file }))?.privateKey, pem);
    t.equal(parseError({ ...app, GITHUB_APP_PRIVATE_KEY: '/no/such/file.pem' }), 'Invalid environment:\nGITHUB_APP_PRIVATE_KEY: Unexpected value that is neither PEM text nor a readable file; expected the App\'s private key');
    t.equal(parseError({ ...app, GITHUB_APP_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' }), 'Invalid environment:\nGITHUB_APP_PRIVATE_KEY: Unexpected text that is not a PEM private key; expected the key GitHub generated for the App');
    t.equal(parseError({ ...app, GITHUB_APP_ID: 'folio', GITHUB_APP_PRIVATE_KEY: pem }), 'Invalid environment:\nGITHUB_APP_ID: must be the numeric App ID');
  });

  t.test('should sign App JWTs with RS256, issued a minute early and valid under ten minutes', async (t) => {
    const config = githubAppOf(parseEnv({ ...app, GITHUB_APP_PRIVATE_KEY: pem }))!;
    const now = new Date('2026-11-29T08:00:00Z');
    const [head, claims, sig] = appJwt(config, now).split('.');
    t.ok(verify('RSA-SHA256', Buffer.from(`${head}.${claims}`), publicKey, Buffer.from(sig, 'base64url')), 'signature verifies with the public key');
    t.same(JSON.parse(Buffer.from(head, 'base64url').toString()), { alg: 'RS256', typ: 'JWT' });
    const iat = now.getTime() / 1000 - 60;
    t.same(JSON.parse(Buffer.from(claims, 'base64url').toString()), { iat, exp: iat + 600, iss: '12345' });
  });
});
