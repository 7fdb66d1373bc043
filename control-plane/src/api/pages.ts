/** Pages endpoints: list (by version) and search. Page writes happen through Git only. */
import { z } from 'zod';
import { searchPages } from '../pages/search-pages.ts';
import { defineRoute } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { listPagesQuery, pageSchema, projectParams, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, searchPagesBody, searchResultSchema } from './schemas.ts';
import { pageJson } from './serialize.ts';

const TAGS = ['Pages'];

export const pageRoutes = [
  defineRoute({
    method: 'get', path: '/projects/:id/pages', operationId: 'listPages', summary: 'List pages', tags: TAGS,
    description: 'Every page of the selected content version (default `latest`), sorted alphabetically by path.',
    auth: 'pages:read', params: projectParams, query: listPagesQuery,
    responses: { 200: { description: 'Pages', schema: z.object({ data: z.array(pageSchema) }) } },
    async handler({ params, query, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      const rows = await deps.m.Page.find({ project_id: project._id, version: query.version }, { search_text: 0 }).sort({ path: 1 }).lean();
      return { body: { data: rows.map(pageJson) } };
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:id/pages/search', operationId: 'searchPages', summary: 'Search pages', tags: TAGS,
    description: `Web-search style \`query\`: words must all match (prefixes count), "quoted phrases" match in order, `
      + `-word or -"phrase" excludes, and \`a OR b\` matches either. Ordered by relevance (title above description above body). `
      + `\`limit\` defaults to ${SEARCH_DEFAULT_LIMIT}, at most ${SEARCH_MAX_LIMIT}. Needs \`pages:read\`.`,
    auth: 'pages:read', params: projectParams, body: searchPagesBody,
    responses: { 200: { description: 'Results by relevance', schema: z.object({ results: z.array(searchResultSchema) }) } },
    async handler({ params, body, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      return { body: { results: await searchPages(deps.m, project._id, body.version, body.query, body.limit) } };
    },
  }),
];
