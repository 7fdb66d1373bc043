/**
 * Reading what an upload request carried: multipart files (spooled to temporary files by the
 * body parser), or a JSON body on a route whose parser only handles multipart.
 */
import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { z } from 'zod';
import { AppError, invalid } from '../errors.ts';
import { JSON_LIMIT } from '../http/app.ts';
import { assertPlainJson } from '../http/validate.ts';

/** The part of a multipart file the control plane uses (a formidable `File`). */
export interface UploadedFile { filepath: string; size: number; originalFilename?: string | null }

const isUploadedFile = (v: unknown): v is UploadedFile =>
  typeof v === 'object' && v !== null && typeof (v as UploadedFile).filepath === 'string' && typeof (v as UploadedFile).size === 'number';

/** A multipart file field in a route's body schema; described as binary in the OpenAPI document. */
export const fileField = (description: string) => z.custom<UploadedFile>(isUploadedFile, { error: 'Unexpected value; expected a file' })
  .meta({ type: 'string', format: 'binary', description });

/** Every spooled file of the request, so the handler can delete them whatever happens. */
export function spooledFiles(ctx: Koa.Context): UploadedFile[] {
  const files = (ctx.request as { files?: Record<string, unknown> }).files ?? {};
  return Object.values(files).flat().filter(isUploadedFile);
}

/** Deletes the request's temporary files (the body parser never does). */
export async function discardSpooled(ctx: Koa.Context): Promise<void> {
  await Promise.all(spooledFiles(ctx).map((f) => fs.rm(f.filepath, { force: true })));
}

/** The bytes of an uploaded file. */
export async function fileBytes(file: UploadedFile): Promise<Buffer> {
  return fs.readFile(file.filepath);
}

const JSON_LIMIT_BYTES = Number.parseInt(JSON_LIMIT, 10) * 1024 * 1024;

/** Reads a request stream no body parser consumed, refusing more than `limit` bytes with 413. */
export async function readStream(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new AppError(413, 'payload_too_large', `Request body exceeds the ${limit} byte limit`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new AppError(413, 'payload_too_large', `Request body exceeds the ${limit} byte limit`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The JSON object of a request on a multipart route (the multipart parser leaves other types
 * unread). Malformed JSON, a non-object and `$`/prototype keys are 400 like on every JSON route.
 */
export async function readJsonBody(ctx: Koa.Context): Promise<unknown> {
  const text = (await readStream(ctx.req, JSON_LIMIT_BYTES)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('body', 'Malformed JSON; expected a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('body', 'Malformed JSON; expected a JSON object');
  assertPlainJson(value);
  return value;
}
