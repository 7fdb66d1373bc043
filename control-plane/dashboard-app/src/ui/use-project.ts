/** One project, loaded for the project tabs. */
import { api } from '../api.ts';
import type { Project } from '../pages/projects.tsx';
import { useLoad } from './use-load.ts';

export function useProject(id: string) {
  return useLoad(() => api<Project>('GET', `/projects/${encodeURIComponent(id)}`), [id]);
}
