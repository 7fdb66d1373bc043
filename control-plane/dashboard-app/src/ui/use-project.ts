/** One project, loaded for the project tabs. */
import { api } from '../api.ts';
import { useLoad } from './use-load.ts';

/** A project as the dashboard API answers it. */
export interface Project {
  id: string;
  name: string;
  slug: string;
  status: string;
  github_repo: string | null;
  github_branch: string | null;
  custom_domain?: string | null;
  last_deploy_at: string | null;
  created_at: string;
  git_url?: string | null;
  site_url?: string | null;
  last_deployment?: { id: string; status: string; started_at: string; finished_at: string | null; commit_sha: string | null; pages_failed?: number | null } | null;
  /** The commit the live site serves (null when nothing is live). */
  live_commit_sha?: string | null;
}

export function useProject(id: string) {
  return useLoad(() => api<Project>('GET', `/projects/${encodeURIComponent(id)}`), [id]);
}
