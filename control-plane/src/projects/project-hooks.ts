/** Hooks other modules register to follow a project's life (managed repository, site files). */
export interface ProjectHooks {
  created?(project: { id: string; slug: string; github_repo: string | null; github_branch: string }): Promise<void>;
  deleted?(project: { id: string; slug: string }): Promise<void>;
}
