/**
 * Decides what an uploaded file is from its bytes alone. File names and declared content types
 * are the client's claims; a PNG named `logo.svg` is a PNG, a text file named `logo.png` is
 * refused.
 */
import { invalid } from '../errors.ts';
import { sanitizeSvg } from './sanitize-svg.ts';

export type FileKind = 'svg' | 'png' | 'jpeg' | 'webp' | 'ico';

/** An accepted upload: its kind, the extension and Content-Type it is stored with, and the bytes to store. */
export interface DetectedFile { kind: FileKind; ext: string; contentType: string; bytes: Buffer }

const INFO: Record<FileKind, { ext: string; contentType: string; label: string }> = {
  svg: { ext: 'svg', contentType: 'image/svg+xml', label: 'SVG' },
  png: { ext: 'png', contentType: 'image/png', label: 'PNG' },
  jpeg: { ext: 'jpg', contentType: 'image/jpeg', label: 'JPEG' },
  webp: { ext: 'webp', contentType: 'image/webp', label: 'WebP' },
  ico: { ext: 'ico', contentType: 'image/x-icon', label: 'ICO' },
};

const startsWith = (b: Uint8Array, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The raster kind the signature at the start of `b` announces, if any. */
export function rasterKind(b: Uint8Array): FileKind | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)) return 'webp';
  // ICONDIR: reserved 0, type 1 (icon), then at least one image and a full 16-byte entry.
  if (startsWith(b, [0x00, 0x00, 0x01, 0x00]) && b.length >= 22 && (b[4] | (b[5] << 8)) > 0) return 'ico';
  return undefined;
}

/** "SVG, PNG, JPEG or WebP" */
function list(kinds: readonly FileKind[]): string {
  const labels = kinds.map((k) => INFO[k].label);
  return labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

/**
 * Identifies `bytes` as one of `allowed` kinds, or throws 400 `invalid_request` naming `field`
 * (`light: Unexpected file type; expected SVG, PNG, JPEG or WebP`). SVGs come back sanitised
 * (`sanitizeSvg`); raster files come back unchanged.
 */
export function detectFile(field: string, bytes: Buffer, allowed: readonly FileKind[]): DetectedFile {
  const raster = rasterKind(bytes);
  let kind: FileKind | undefined = raster;
  let out = bytes;
  if (!raster) {
    const svg = sanitizeSvg(bytes);
    if (svg) { kind = 'svg'; out = svg; }
  }
  if (!kind || !allowed.includes(kind)) throw invalid(field, `Unexpected file type; expected ${list(allowed)}`);
  return { kind, ext: INFO[kind].ext, contentType: INFO[kind].contentType, bytes: out };
}
