/**
 * The name a file is stored under: screenshots are called "Install screen 2.png", and asset
 * names are letters, digits, ".", "_" and "-" only, so anything else becomes "-"
 * ("install-screen-2.png"); a pasted image without a name is "pasted-image.<type>".
 */
export function assetName(file: { name: string; type: string }): string {
  const fallback = `pasted-image.${file.type.split('/')[1]?.replace(/\W.*$/, '') || 'png'}`;
  const dot = file.name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [file.name.slice(0, dot), file.name.slice(dot + 1)] : [file.name, ''];
  const clean = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  const base = clean(stem);
  if (!base) return fallback;
  const suffix = clean(ext);
  return suffix ? `${base}.${suffix}` : base;
}
