import t from 'tap';
import { pageNoteLines } from '../../src/links/page-notes.ts';
import type { PageRecord } from '../../src/state/page-bodies.ts';
import type { PageNote } from '../../src/types.ts';

const record = (sourcePath: string, notes?: PageNote[]): [string, PageRecord] =>
  [sourcePath, { cacheKey: sourcePath, summary: { sourcePath, urlPath: `/${sourcePath}`, ...(notes ? { notes } : {}) } } as unknown as PageRecord];

t.test('page notes', async (t) => {
  const critical: PageNote = { kind: 'component', name: 'Critical', line: 91, column: 1 };
  const records = new Map([
    record('v1/en/mcp/security.mdx', [critical, { kind: 'component', name: 'Paramfield', line: 4, column: 2, suggestion: 'ParamField' }]),
    record('v2/en/mcp/security.mdx', [{ ...critical, line: 95 }]),
    record('v2/en/changelog.mdx', [{ kind: 'expression', name: 'kickoff_id', line: 915, column: 45 }, { kind: 'expression', name: 'kickoff_id', line: 915, column: 70 }]),
    record('v3/en/mcp/security.mdx', [critical]),
    record('plain.mdx'),
  ]);
  const sources = [...records.keys()];

  t.test('should warn once per component name with its page count, and once per page with expressions', async (t) => {
    t.same(pageNoteLines(sources, records, new Set()), [
      '`<Critical>` is neither a built-in component nor imported or defined in the page; its content is shown in a plain container: 3 pages, first v1/en/mcp/security.mdx:91:1',
      '`<Paramfield>` is neither a built-in component nor imported or defined in the page; its content is shown in a plain container (did you mean `<ParamField>`?): 1 page, first v1/en/mcp/security.mdx:4:2',
      'v2/en/changelog.mdx:915:45: `{kickoff_id}` names nothing the page defines; shown as written (and 1 more on this page). Write \\{ or use code for braces in text',
    ]);
  });

  t.test('should leave out failed pages, whose published version is an older one', async (t) => {
    t.same(pageNoteLines(sources, records, new Set(['v1/en/mcp/security.mdx', 'v2/en/changelog.mdx'])), [
      '`<Critical>` is neither a built-in component nor imported or defined in the page; its content is shown in a plain container: 2 pages, first v2/en/mcp/security.mdx:95:1',
    ]);
  });
});
