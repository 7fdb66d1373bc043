/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { Icon as UiIcon } from './icons.tsx';

/** Props of `<GitHub.Repo>`: `repo` (`owner/name`), optional `description` and `href` (default: the repository on github.com). */
export interface GitHubRepoProps { repo?: string; description?: ComponentChildren; href?: string; children?: ComponentChildren }

const REPO = /^[\w.-]+\/[\w.-]+$/;

/**
 * A static card for a GitHub repository. It never calls GitHub: builds must not depend on the
 * network, so stars and descriptions are what the author writes.
 */
function GitHubRepo({ repo = '', description, href, children }: GitHubRepoProps) {
  const url = href ?? (REPO.test(repo) ? `https://github.com/${repo}` : undefined);
  const inner = [
    <span class="github-repo-name"><UiIcon name="github" class="github-icon" />{repo}</span>,
    description || children ? <span class="github-repo-description">{description ?? children}</span> : null,
  ];
  return url ? <a class="card github-repo" href={url}>{inner}</a> : <div class="card github-repo">{inner}</div>;
}

/** `<GitHub>`: a group of `<GitHub.Repo>` cards. */
export function GitHub({ children }: { children?: ComponentChildren }) {
  return <div class="card-group github" style="--cols:2">{children}</div>;
}
GitHub.Repo = GitHubRepo;
