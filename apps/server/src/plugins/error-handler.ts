import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { parseRangeMessage, type ApiError } from '@reverie/shared';
import { AppError } from '../lib/errors.js';
import { hasTranslation, translate } from '../lib/i18n.js';
import type { Locale } from '@reverie/shared';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
};

/**
 * A validation key (`invalid_value`, `too_long`, …) or a key with values (`number_range:0:100`,
 * shared `rangeMessage`) in the reader's language; null for anything else.
 */
function validationKeyText(locale: Locale, message: string): string | null {
  const ranged = parseRangeMessage(message);
  const key = `validation.${ranged ? ranged.key : message}`;
  if (!hasTranslation(key)) return null;
  return ranged ? translate(locale, key, { min: ranged.min, max: ranged.max }) : translate(locale, key);
}

/** A validation message is a key of `validation.*` in the locale files, or plain text. */
function validationText(locale: Locale, message: string): string {
  return validationKeyText(locale, message) ?? translate(locale, 'validation.invalid_value');
}

/** A service's field messages: a validation key in the reader's language, other text as given. */
function fieldTexts(locale: Locale, errors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => [field, messages.map((m) => validationKeyText(locale, m) ?? m)]),
  );
}

function errorText(locale: Locale, code: string, fallback: string): string {
  const key = `errors.${code}`;
  return hasTranslation(key) ? translate(locale, key) : fallback;
}

/** Turns every failure into the API error shape; a 500 never leaks internals. */
export function toApiError(
  error: unknown,
  request: FastifyRequest,
): { status: number; body: ApiError; headers?: Record<string, string> } {
  const locale = request.locale;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: Record<string, string[]> = {};
    for (const issue of error.validation) {
      const field =
        issue.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
        String((issue.params as { issue?: { path?: unknown[] } }).issue?.path?.join('.') ?? '') ||
        'non_field_errors';
      (errors[field] ??= []).push(validationText(locale, issue.message ?? 'invalid_value'));
    }
    return {
      status: 400,
      body: { detail: errorText(locale, 'validation_error', 'Invalid request'), code: 'validation_error', errors },
    };
  }
  if (error instanceof AppError) {
    const detail = error.isCatalogueText ? errorText(locale, error.code, error.message) : error.message;
    return {
      status: error.statusCode,
      body: { detail, code: error.code, ...(error.errors ? { errors: fieldTexts(locale, error.errors) } : {}) },
      headers: error.headers,
    };
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'bad_request';
    const detail = hasTranslation(`errors.${code}`)
      ? translate(locale, `errors.${code}`)
      : (fastifyError.message ?? code);
    return { status, body: { detail, code } };
  }
  return {
    status: 500,
    body: { detail: translate(locale, 'errors.internal_error'), code: 'internal_error' },
  };
}

export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error, request, reply: FastifyReply) => {
      const { status, body, headers } = toApiError(error, request);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.debug({ err: error, code: body.code }, 'request refused');
      if (headers) reply.headers(headers);
      return reply.status(status).send(body);
    });
  },
  { name: 'error-handler' },
);
