import type { FastifyRequest } from 'fastify';
import type { Locale } from '@reverie/shared';
import { AppError } from './errors.js';
import { hasTranslation, translate } from './i18n.js';

/**
 * Reads a multipart form: text fields (repeated names become arrays) and the file `fileField`
 * (one file at most). 413 past a limit, 400 for a form that cannot be read.
 */
export async function readMultipart(
  request: FastifyRequest,
  fileField: string,
  maxBytes: number,
  limits: { fields: number; fieldSize: number } = { fields: 40, fieldSize: 16 * 1024 },
): Promise<{ fields: Record<string, string | string[]>; file: Buffer | null }> {
  const fields: Record<string, string | string[]> = {};
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, ...limits } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === fileField) file = data;
      } else {
        const value = String(part.value ?? '');
        const name = part.fieldname.replace(/\[\]$/, '');
        if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
        const existing = fields[name];
        fields[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', { status: 413 });
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new AppError('payload_too_large', { status: 413 });
    throw new AppError('bad_request', { status: 400, detail: 'The form could not be read' });
  }
  return { fields, file };
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
