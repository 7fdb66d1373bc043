/**
 * `GET /internal/v1/tls/ask?domain=<hostname>`: the `ask` endpoint of Caddy's on-demand TLS
 * (docker/Caddyfile), asked before Caddy orders a certificate for a host a visitor's handshake
 * named. 200 only for a verified custom domain; 404 `not_found` for anything else (a pending or
 * removed domain, the platform's own hosts, which Caddy covers with its own certificate); 400
 * `invalid_request` without a hostname. It tells no more than DNS and the site itself do.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { AppError, invalid } from '../errors.ts';
import { routesWithAllow } from '../http/method-guard.ts';
import type { Deps } from '../http/route.ts';

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The ask route as Koa middleware. */
export function tlsAskApi(deps: Deps): Koa.Middleware {
  const router = new Router({ prefix: '/internal/v1/tls' });
  router.get('/ask', async (ctx) => {
    const given = ctx.query.domain;
    if (given === undefined || given === '') throw invalid('domain', 'required; expected the hostname a certificate would be for, as ?domain=docs.example.com');
    if (typeof given !== 'string') throw invalid('domain', 'Unexpected several values; expected one hostname');
    const hostname = given.toLowerCase().replace(/\.$/, '');
    if (!HOSTNAME.test(hostname)) throw invalid('domain', 'must be a hostname such as docs.example.com');
    if (!await deps.m.Domain.exists({ hostname, status: 'verified' })) throw new AppError(404, 'not_found', `${hostname} is not a verified custom domain`);
    ctx.body = { domain: hostname, allowed: true };
  });
  return routesWithAllow(router);
}
