/**
 * The writing agent's tools: what each does, its arguments' schema (zod, strict: an argument the
 * schema does not name, such as another project's id, is refused) and its implementation,
 * confined to one project and one run. Reads see the repository at the run's base commit with
 * the run's own writes on top; writes are kept on the run and reach Git only on its branch
 * (`agent/<run id>`, agent-commit.ts), never the production branch.
 */
import { z } from 'zod';
import type { ToolSpec } from '../ai-settings/model-client.ts';
import { listRepoFiles, readRepoFile } from '../editor/repo-files.ts';
import { runGit } from '../git/git-cli.ts';
import { repoPath } from '../git/managed-repos.ts';
import type { Deps } from '../http/route.ts';

/** Longest page a tool answers with (characters); longer pages are cut and say so. */
const MAX_READ_CHARS = 60_000;
/** Longest page the agent may write. */
export const MAX_WRITE_CHARS = 200_000;
const WRITABLE = /\.(mdx|md|json|ya?ml)$/i;

/** A repository path the agent may use: relative, inside the project, no hidden folders, a docs file. */
export const agentPath = z.string().trim().min(1, 'Required').max(300, 'must be at most 300 characters').superRefine((p, ctx) => {
  const bad = (message: string) => ctx.addIssue({ code: 'custom', message });
  if (p.startsWith('/') || p.includes('\\') || /^[a-z]+:/i.test(p)) return bad('must be a path inside the project, relative to its root (such as guides/intro.mdx)');
  const segments = p.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return bad('must stay inside the project: no "..", "." or empty segments');
  if (segments.some((s) => s.startsWith('.'))) return bad('must not name a hidden file or folder');
  if (!WRITABLE.test(p)) bad('must be a page (.mdx, .md) or a docs file (.json, .yaml)');
});

export const TOOL_SCHEMAS = {
  search_docs: z.strictObject({ query: z.string().trim().min(1, 'Required').max(200, 'must be at most 200 characters') }),
  read_page: z.strictObject({ path: agentPath }),
  write_page: z.strictObject({ path: agentPath, content: z.string().max(MAX_WRITE_CHARS, `must be at most ${MAX_WRITE_CHARS} characters`) }),
  move_page: z.strictObject({ from: agentPath, to: agentPath }),
  read_openapi: z.strictObject({ path: agentPath.optional() }),
  run_build: z.strictObject({}),
  finish: z.strictObject({ summary: z.string().trim().min(1, 'Required').max(4_000, 'must be at most 4000 characters') }),
} as const;

export type ToolName = keyof typeof TOOL_SCHEMAS;

const DESCRIPTIONS: Record<ToolName, string> = {
  search_docs: 'Search the project\'s pages for words; answers up to 8 pages with their title and a matching line.',
  read_page: 'Read a file of the project (a page, docs.json, an OpenAPI file) as it is now, with your own changes.',
  write_page: 'Create or replace a page or docs file with the full new content. Changes go to your review branch only.',
  move_page: 'Move or rename a page (from → to). Links to it are not changed: update them with write_page.',
  read_openapi: 'Read the project\'s OpenAPI document (the one docs.json names, or the first openapi.json/.yaml found; or the given path).',
  run_build: 'Build the site with your changes, as a preview, and read the build\'s failures and warnings. Call it after writing and before finish.',
  finish: 'End the task with a short summary for the writer of what you changed and why.',
};

/** The tools as the model is told about them (JSON schema from zod). */
export const TOOL_SPECS: ToolSpec[] = (Object.keys(TOOL_SCHEMAS) as ToolName[]).map((name) => {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(TOOL_SCHEMAS[name]) as Record<string, unknown>;
  return { name, description: DESCRIPTIONS[name], parameters };
});

/** What a run's tools work on. */
export interface ToolContext {
  deps: Deps;
  projectId: string;
  baseCommit: string | null;
  /** The run's writes by path (null: deleted), newest content. */
  writes: Map<string, { content: string | null; renamed_from: string | null }>;
  /** Commits the writes to the run's branch and waits for its build (agent-runner.ts). */
  build(): Promise<Record<string, unknown>>;
}

/** The project's files now: the base commit's, with the run's writes applied. */
async function currentPaths(ctx: ToolContext): Promise<string[]> {
  const base = ctx.baseCommit ? (await listRepoFiles(ctx.deps, ctx.projectId, ctx.baseCommit)).map((f) => f.path) : [];
  const paths = new Set(base);
  for (const [path, w] of ctx.writes) { if (w.content === null) paths.delete(path); else paths.add(path); }
  return [...paths].sort();
}

export async function readCurrent(ctx: ToolContext, path: string): Promise<string | undefined> {
  const written = ctx.writes.get(path);
  if (written) return written.content ?? undefined;
  if (!ctx.baseCommit) return undefined;
  return (await readRepoFile(ctx.deps, ctx.projectId, ctx.baseCommit, path))?.toString('utf8');
}

const clip = (text: string) => (text.length > MAX_READ_CHARS ? { content: text.slice(0, MAX_READ_CHARS), truncated: true } : { content: text, truncated: false });
const titleOf = (text: string, path: string) => /^title:\s*["']?(.+?)["']?\s*$/m.exec(text)?.[1] ?? /^#\s+(.+)$/m.exec(text)?.[1] ?? path;

/**
 * Pages matching any of `words`, scored by matching lines (+3 when the path names a word): one
 * `git grep` over the base commit (no file read one by one), the run's own writes searched in memory.
 */
async function searchScores(ctx: ToolContext, words: string[]): Promise<Map<string, number>> {
  const scores = new Map<string, number>();
  const isPage = (p: string) => /\.mdx?$/i.test(p);
  if (ctx.baseCommit) {
    const patterns = words.flatMap((w) => ['-e', w]);
    const { stdout } = await runGit(['grep', '-I', '-i', '-c', '-F', ...patterns, ctx.baseCommit, '--', '*.md', '*.mdx'], { cwd: repoPath(ctx.deps, ctx.projectId), allowFail: true });
    for (const line of stdout.toString('utf8').split('\n')) {
      const m = /^[0-9a-f]+:(.+):(\d+)$/.exec(line);
      if (m && !ctx.writes.has(m[1])) scores.set(m[1], Number(m[2]));
    }
    for (const f of await listRepoFiles(ctx.deps, ctx.projectId, ctx.baseCommit)) {
      if (isPage(f.path) && !ctx.writes.has(f.path) && words.some((w) => f.path.toLowerCase().includes(w))) scores.set(f.path, (scores.get(f.path) ?? 0) + 3);
    }
  }
  for (const [path, w] of ctx.writes) {
    if (w.content === null || !isPage(path)) continue;
    const lines = w.content.toLowerCase().split('\n').filter((l) => words.some((x) => l.includes(x))).length;
    const score = lines + (words.some((x) => path.toLowerCase().includes(x)) ? 3 : 0);
    if (score) scores.set(path, score);
  }
  return scores;
}

/** A tool's outcome: `ok` false carries the refusal the model reads (and the run goes on). */
export type ToolOutcome = { ok: true; result: Record<string, unknown>; summary: string } | { ok: false; error: string; summary: string };

const refuse = (error: string, summary = error): ToolOutcome => ({ ok: false, error, summary });

/** Checks the call's arguments and runs it. Never throws for the model's mistakes. */
export async function runTool(ctx: ToolContext, name: string, rawArgs: string): Promise<ToolOutcome> {
  if (!(name in TOOL_SCHEMAS)) return refuse(`Unknown tool "${name.slice(0, 60)}"; use one of: ${Object.keys(TOOL_SCHEMAS).join(', ')}`);
  let json: unknown;
  try { json = rawArgs.trim() ? JSON.parse(rawArgs) : {}; } catch { return refuse(`${name}: the arguments are not valid JSON`); }
  const parsed = TOOL_SCHEMAS[name as ToolName].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.code === 'unrecognized_keys' ? `unknown argument ${issue.keys.map((k) => `"${k.slice(0, 40)}"`).join(', ')} (this run works on one project only)` : `${issue.path.join('.') || 'arguments'}: ${issue.message}`;
    return refuse(`${name} refused: ${where}`);
  }
  const args = parsed.data as Record<string, string>;
  switch (name as ToolName) {
    case 'search_docs': {
      const words = [...new Set(args.query.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 12);
      const scores = await searchScores(ctx, words);
      const ranked = [...scores].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).slice(0, 8);
      const results = [];
      for (const [path] of ranked) {
        const text = (await readCurrent(ctx, path)) ?? '';
        const line = text.split('\n').find((l) => words.some((w) => l.toLowerCase().includes(w))) ?? '';
        results.push({ path, title: titleOf(text, path), line: line.trim().slice(0, 200) });
      }
      return { ok: true, result: { results }, summary: `Searched for "${args.query}": ${results.length} page${results.length === 1 ? '' : 's'}` };
    }
    case 'read_page': {
      const text = await readCurrent(ctx, args.path);
      if (text === undefined) return refuse(`read_page: ${args.path} does not exist in this project`, `No page ${args.path}`);
      return { ok: true, result: { path: args.path, ...clip(text) }, summary: `Read ${args.path}` };
    }
    case 'write_page': {
      const existed = (await readCurrent(ctx, args.path)) !== undefined;
      ctx.writes.set(args.path, { content: args.content, renamed_from: ctx.writes.get(args.path)?.renamed_from ?? null });
      return { ok: true, result: { path: args.path, status: existed ? 'modified' : 'added' }, summary: `${existed ? 'Changed' : 'Created'} ${args.path}` };
    }
    case 'move_page': {
      const text = await readCurrent(ctx, args.from);
      if (text === undefined) return refuse(`move_page: ${args.from} does not exist in this project`, `No page ${args.from}`);
      if ((await readCurrent(ctx, args.to)) !== undefined) return refuse(`move_page: ${args.to} already exists`, `${args.to} exists`);
      ctx.writes.set(args.from, { content: null, renamed_from: null });
      ctx.writes.set(args.to, { content: text, renamed_from: args.from });
      return { ok: true, result: { from: args.from, to: args.to }, summary: `Moved ${args.from} to ${args.to}` };
    }
    case 'read_openapi': {
      let path: string | undefined = args.path;
      if (!path) {
        const config = (await readCurrent(ctx, 'docs.json')) ?? '';
        const named = /"openapi"\s*:\s*"([^"]+)"/.exec(config)?.[1]?.replace(/^\.?\//, '');
        const paths = await currentPaths(ctx);
        path = named && paths.includes(named) ? named : paths.find((p) => /(^|\/)openapi\.(json|ya?ml)$/i.test(p));
      }
      const text = path ? await readCurrent(ctx, path) : undefined;
      if (!path || text === undefined) return refuse('read_openapi: this project has no OpenAPI document', 'No OpenAPI document');
      return { ok: true, result: { path, ...clip(text) }, summary: `Read the OpenAPI document ${path}` };
    }
    case 'run_build': {
      if (!ctx.writes.size) return refuse('run_build: nothing changed yet; write a page first', 'Nothing to build yet');
      const result = await ctx.build();
      return { ok: true, result, summary: String(result.summary ?? 'Built') };
    }
    case 'finish':
      return { ok: true, result: { summary: args.summary }, summary: args.summary };
  }
}
