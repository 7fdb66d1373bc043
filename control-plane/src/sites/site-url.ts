/** The public URL of a project's production site. */
import type { Env } from '../env.ts';

/**
 * `https://{custom domain}` when the project has one, else `template` with `{slug}` replaced
 * (SITE_URL_TEMPLATE, default `http://{slug}.{SITES_DOMAIN}:{SITE_PORT}`).
 */
export function siteUrlFrom(template: string, project: { slug: string; custom_domain?: string | null }): string {
  return project.custom_domain ? `https://${project.custom_domain}` : template.replace('{slug}', project.slug);
}

/** The public URL of a project's production site, with the server's SITE_URL_TEMPLATE. */
export function siteUrlOf(deps: { env: Pick<Env, 'siteUrlTemplate'> }, project: { slug: string; custom_domain?: string | null }): string {
  return siteUrlFrom(deps.env.siteUrlTemplate, project);
}
