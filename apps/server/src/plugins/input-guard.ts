import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasUnstorableCharacters, jsonTooDeep, JSON_MAX_DEPTH } from '@reverie/shared';
import { AppError } from '../lib/errors.js';
import { translate } from '../lib/i18n.js';

/**
 * Input rules every route gets (docs/ARCHITECTURE.md "Conventions"):
 *
 * - JSON bodies nested deeper than JSON_MAX_DEPTH are refused before parsing (400
 *   `json_too_deep`); prototype-poisoning keys are refused by the default parser (400);
 * - after validation, no string of the path, query or schema-validated body may still hold
 *   what PostgreSQL cannot store (NUL, unpaired surrogates): 400 with a field error. The
 *   shared schemas refuse or clean such characters field by field (`singleLine`,
 *   `freeText`); this is the net under them for any field that forgot. Routes without a
 *   body schema (multipart forms, card imports, webhooks) read and clean their bodies themselves.
 */
export const inputGuardPlugin = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (jsonTooDeep(text)) {
        done(new AppError('json_too_deep', { status: 400 }), undefined);
        return;
      }
      parseJson(request, text, done);
    });

    app.addHook('preHandler', (request, _reply, done) => {
      const errors = new Map<string, string[]>();
      collect(request.params, '', errors, request);
      collect(request.query, '', errors, request);
      if (request.routeOptions.schema?.body) collect(request.body, '', errors, request);
      // fromEntries keeps a field named `__proto__` an ordinary key of the answer.
      done(
        errors.size ? new AppError('validation_error', { status: 400, errors: Object.fromEntries(errors) }) : undefined,
      );
    });
  },
  { name: 'input-guard', dependencies: ['request-context'] },
);

/** Adds a field error for every string (or key) holding an unstorable character. */
function collect(
  value: unknown,
  path: string,
  errors: Map<string, string[]>,
  request: FastifyRequest,
  depth = 0,
): void {
  if (typeof value === 'string') {
    if (hasUnstorableCharacters(value))
      errors.set(path || 'non_field_errors', [translate(request.locale, 'validation.control_characters')]);
    return;
  }
  if (!value || typeof value !== 'object' || depth > JSON_MAX_DEPTH || Buffer.isBuffer(value)) return;
  for (const [key, item] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    if (hasUnstorableCharacters(key)) errors.set(field, [translate(request.locale, 'validation.control_characters')]);
    collect(item, field, errors, request, depth + 1);
  }
}
