/**
 * Which Hocuspocus document names the collaboration socket accepts: a text file's repository
 * path ('/'-separated, relative, normalised, no `..`), the same shape drafts are stored under,
 * or {@link PRESENCE_DOCUMENT}, the project's presence channel (awareness only, never written).
 */

/** The document every editor of a project joins to say which file it has open. */
export const PRESENCE_DOCUMENT = ':presence';

/** Text files the editor edits together (binary drafts are uploads, never shared documents). */
const TEXT_EXTENSIONS = new Set(['mdx', 'md', 'markdown', 'json', 'css', 'js', 'mjs', 'jsx', 'ts', 'tsx', 'yml', 'yaml', 'txt', 'html', 'svg']);

/** Why `name` is not a document of the socket, or undefined when it is a valid file path. */
export function documentPathProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 1024) return 'The document name must be a file path of 1 to 1024 characters';
  if (name.startsWith('/') || name.includes('\\') || [...name].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) return `${JSON.stringify(name.slice(0, 100))} is not a relative repository path`;
  const segments = name.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return `${JSON.stringify(name.slice(0, 100))} is not a normalised repository path (no empty, . or .. segments)`;
  const ext = /\.([A-Za-z0-9]+)$/.exec(segments[segments.length - 1]!)?.[1]?.toLowerCase();
  if (!ext || !TEXT_EXTENSIONS.has(ext)) return `${JSON.stringify(name.slice(0, 100))} is not a text file the editor shares (${[...TEXT_EXTENSIONS].map((e) => `.${e}`).join(', ')})`;
  return undefined;
}
