/**
 * `GET /metrics` on the API host: the fleet's Prometheus metrics (fleet-metrics.ts). When
 * `METRICS_TOKEN` is set, only `Authorization: Bearer <METRICS_TOKEN>` is answered; anything else
 * gets `401 unauthorized`. Unset, the endpoint is open: keep the API port off the internet, or set
 * the token (compose sets it).
 */
import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import { unauthorized } from '../errors.ts';
import { routesWithAllow } from '../http/method-guard.ts';
import type { FleetMetrics } from './fleet-metrics.ts';

/** The exact message of a refused scrape. */
export const METRICS_UNAUTHORIZED = 'Metrics need Authorization: Bearer <METRICS_TOKEN>';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function metricsRoute(metrics: FleetMetrics, token: string | undefined): Koa.Middleware {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    if (token) {
      const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
      if (!m || !sameToken(m[1], token)) throw unauthorized(METRICS_UNAUTHORIZED);
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.render();
  });
  return routesWithAllow(router);
}
