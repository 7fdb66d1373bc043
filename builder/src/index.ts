/**
 * @folio/builder: a Git repository of MDX becomes a static docs site, incrementally.
 */
export { build, openSource, type BuildOptions, type BuildSource, type PageChanges, type PageUpsert } from './build.ts';
export { BuilderError, userError, appError, type BuilderErrorKind } from './errors.ts';
export type { BuildResult, CompiledPage, PageFailure, StepTimings } from './types.ts';
export { syncRemote, redact, type RemoteOptions } from './git/sync-remote.ts';
export { diffCommits, hasCommit, type FileChange } from './git/diff-commits.ts';
export { openGitSnapshot, openDirSnapshot, type RepoSnapshot } from './git/repo-snapshot.ts';
export { assertKey, prefixStore, type ObjectStore, type ObjectHead, type PutOptions } from './store/object-store.ts';
export { createLocalDirStore } from './store/local-dir-store.ts';
export { createS3Store, type S3StoreOptions } from './store/s3-store.ts';
export { storeFromEnv, type StoreEnv } from './store/store-from-env.ts';
export { grantAnswer, grantRequest, MAX_GRANTS_PER_REQUEST, type GrantAnswer, type GrantRequest } from './store/upload-grant-protocol.ts';
export { cacheControlFor, contentTypeFor, IMMUTABLE, REVALIDATE, SHORT, PRIVATE } from './store/content-type.ts';
export { DEFAULT_LIMITS, type BuildLimits } from './limits/build-limits.ts';
export { scrubbedEnv } from './limits/scrubbed-env.ts';
export { readManifest, MANIFEST_KEY, CACHE_PREFIX, STATE_PREFIX, type BuildManifest } from './state/manifest.ts';
export { SUMMARIES_KEY } from './state/page-summaries.ts';
export type { JobReport, PageRecord } from './worker/control-plane-client.ts';
export { candidateKeys, wantsMarkdown, matchRedirect, type RedirectRule } from './serve/resolve-path.ts';
export { audiencePrefix, ACCESS_PREFIX } from './access/audiences.ts';
export { HEADERS_KEY, DEFAULT_SITE_HEADERS, readSiteHeaders, type SiteHeaders } from './outputs/site-headers.ts';
export { sanitizeSiteCss, sanitizeSvgStylesheet, sanitizeSvgDeclarations, isSafeSvgCssValue, type SanitizedCss, type SiteCssOptions } from './css/sanitize-css.ts';
export { detachedStrings } from './detached-strings.ts';
export { configProblems, type ConfigProblem } from './config/config-problems.ts';
export { sourceFacts, type SourceFacts, type SourceHeading } from './compile/source-facts.ts';
export { urlPathFor } from './compile/url-path.ts';
export { resolveLink } from './links/link-check.ts';
export { startPreviewProcess, previewClientScript, processGroupRss, type PreviewProcess, type PreviewProcessOptions } from './preview/preview-launch.ts';
export type { PreviewUpdate } from './preview/draft-preview.ts';
export type { DevEvent, DevProblem } from './dev/dev-session.ts';
