/** Editor URLs and file names: each file has its own address, and new pages get a path from their title. */

/** The editor's address of `path` in project `projectId` (the folder separators stay readable). */
export function fileUrl(projectId: string, path?: string): string {
  const base = `/projects/${encodeURIComponent(projectId)}/editor`;
  return path ? `${base}/${path.split('/').map(encodeURIComponent).join('/')}` : base;
}

/** A file name from a page title: "Getting started!" → "getting-started". */
export function slugify(title: string): string {
  return title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'page';
}

/** A new page's repository path: in `folder`, named after the title, as .mdx. */
export function pagePath(folder: string, title: string): string {
  const dir = folder.replace(/^\/+|\/+$/g, '');
  return `${dir ? `${dir}/` : ''}${slugify(title)}.mdx`;
}

/** The text a new page starts with. */
export function starterPage(title: string): string {
  return `---\ntitle: ${JSON.stringify(title.trim() || 'New page').replace(/^"(.*)"$/, (m, inner: string) => (/[:#'"]/.test(inner) ? m : inner))}\n---\n\n`;
}

/** Whether a path is a page (what the preview shows). */
export const isPage = (path: string) => /\.(mdx|md)$/i.test(path);
/** Whether a path is edited as text in the editor. */
export const isText = (path: string) => /\.(mdx|md|json|txt|css|js|yml|yaml)$/i.test(path);
