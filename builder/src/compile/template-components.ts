/**
 * Loads the site template's MDX components (`components` of `@folio/site-template`) through
 * Vite, so their TSX is compiled with Preact's JSX runtime whatever loader runs the builder.
 */
import type { InlineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

/** The builder package directory: Vite's root, from which `preact` and the template resolve. */
export const BUILDER_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Vite settings shared by every compile-side Vite instance. */
export const baseViteConfig: InlineConfig = {
  configFile: false,
  envFile: false,
  // Only variables with this prefix would reach import.meta.env; none are ever set.
  envPrefix: 'FOLIO_PAGE_PUBLIC_',
  root: BUILDER_ROOT,
  logLevel: 'silent',
  clearScreen: false,
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
};

/** Module that exports the template's `components` map. */
export const TEMPLATE_COMPONENTS = '@folio/site-template/components/index.ts';

/** Imports the template's components once (for tools outside a compiler, e.g. the raw floor). */
export async function loadTemplateComponents(): Promise<Record<string, unknown>> {
  // Vite is loaded on use: the builder's process imports this file for `baseViteConfig` alone.
  const { runnerImport } = await import('vite');
  const { module } = await runnerImport<{ components: Record<string, unknown> }>(TEMPLATE_COMPONENTS, baseViteConfig);
  return module.components;
}
