import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Locale } from '@reverie/shared';
import { AppError } from './errors.js';
import { hasTranslation, translate } from './i18n.js';

/** An uploaded file spooled to a temporary file on disk (not held in memory while it arrives or waits). */
export interface SpooledFile {
  readonly size: number;
  /** The bytes, read when the picture's turn has come. */
  read(): Promise<Buffer>;
  /** The bytes as a stream (a large file read piece by piece: a chat import). */
  stream(): NodeJS.ReadableStream;
  /** Deletes the temporary file (once the request is done with it). */
  discard(): Promise<void>;
}

/** Where uploads are spooled: the system's temporary directory, one file per upload. */
const spoolDir = () => path.join(os.tmpdir(), 'reverie-uploads');

async function spool(stream: NodeJS.ReadableStream): Promise<SpooledFile> {
  await fs.promises.mkdir(spoolDir(), { recursive: true });
  const file = path.join(spoolDir(), randomUUID());
  const discard = () => fs.promises.rm(file, { force: true });
  try {
    await pipeline(stream, fs.createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await discard();
    throw error;
  }
  const { size } = await fs.promises.stat(file);
  return { size, read: () => fs.promises.readFile(file), stream: () => fs.createReadStream(file), discard };
}

/**
 * Reads a multipart form: text fields (repeated names become arrays) and the file `fileField`
 * (one file at most), streamed to a temporary file on disk as it arrives (`SpooledFile`; the
 * caller discards it). 413 past a limit, 400 for a form that cannot be read.
 */
export async function receiveMultipart(
  request: FastifyRequest,
  fileField: string,
  maxBytes: number,
  limits: { fields: number; fieldSize: number } = { fields: 40, fieldSize: 16 * 1024 },
): Promise<{ fields: Record<string, string | string[]>; file: SpooledFile | null }> {
  const fields: Record<string, string | string[]> = {};
  let file: SpooledFile | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, ...limits } })) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField) {
          part.file.resume();
          continue;
        }
        const spooled = await spool(part.file);
        if (part.file.truncated) {
          await spooled.discard();
          throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
        }
        file = spooled;
      } else {
        const value = String(part.value ?? '');
        const name = part.fieldname.replace(/\[\]$/, '');
        if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
        const existing = fields[name];
        fields[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
      }
    }
  } catch (error) {
    await file?.discard();
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', { status: 413 });
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new AppError('payload_too_large', { status: 413 });
    throw new AppError('bad_request', { status: 400, detail: 'The form could not be read' });
  }
  return { fields, file };
}

/** `receiveMultipart` with the file read into memory at once (small forms: the admin console's). */
export async function readMultipart(
  request: FastifyRequest,
  fileField: string,
  maxBytes: number,
  limits?: { fields: number; fieldSize: number },
): Promise<{ fields: Record<string, string | string[]>; file: Buffer | null }> {
  const { fields, file } = await receiveMultipart(request, fileField, maxBytes, limits);
  if (!file) return { fields, file: null };
  try {
    return { fields, file: await file.read() };
  } finally {
    await file.discard();
  }
}

/** A missing file, as the schema-validated routes answer a missing field: 400 with `errors.{field}`. */
export function requiredFileError(request: FastifyRequest, field: string): AppError {
  return new AppError('validation_error', {
    status: 400,
    errors: { [field]: [translate(request.locale, 'validation.required')] },
  });
}

/** An upload that must be a multipart form with a file in `fileField`: 415 for another body, 400 without the file. */
export async function readUpload(
  request: FastifyRequest,
  fileField: string,
  maxBytes: number,
): Promise<{ fields: Record<string, string | string[]>; file: Buffer }> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type', { status: 415 });
  const { fields, file } = await readMultipart(request, fileField, maxBytes);
  if (!file?.length) throw requiredFileError(request, fileField);
  return { fields, file };
}

/** Field errors whose messages are `validation.*` keys, translated as the schema-validated routes do. */
export function translatedFieldErrors(locale: Locale, errors: Record<string, string[]>): AppError {
  const translated: Record<string, string[]> = {};
  for (const [field, keys] of Object.entries(errors)) {
    translated[field] = keys.map((message) => {
      const key = `validation.${message}`;
      return translate(locale, hasTranslation(key) ? key : 'validation.invalid_value');
    });
  }
  return new AppError('validation_error', { status: 400, errors: translated });
}
