/**
 * Folio site template: page shells, MDX components and the client bundle (see
 * docs/markup-contract.md for the HTML the builder emits and the template styles).
 */
export { renderPage, render404 } from './render-page.tsx';
export { buildClientAssets, cachedClientAssets, ASSET_DIR, type BuildClientAssetsOptions, type CachedClientAssets } from './build-client-assets.ts';
export { TEMPLATE_VERSION } from './template-version.ts';
export { TemplateError } from './template-error.ts';
export { THEMES, THEME_TRAITS, TITLE_SEPARATOR } from './theme-traits.ts';
export { components } from '../components/index.ts';
export { renderApiOperation, renderApiSchema, renderWithAside } from '../components/api-operation.tsx';
export { renderApiChannel } from '../components/api-channel.tsx';
export { dropTitleHeading } from './title-heading.ts';
