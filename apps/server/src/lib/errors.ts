import { ApiErrorSchema, ERROR_MESSAGES, type ErrorCode } from '@reverie/shared';

const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  inappropriate_content: 422,
  validation_error: 400,
  invalid_code: 400,
  service_unavailable: 503,
  limits_unavailable: 503,
  uploads_busy: 503,
  payments_not_configured: 503,
  internal_error: 500,
};

/**
 * An error with a stable code that the error handler turns into the API error shape.
 * `detail` defaults to the code's catalogue text, translated for the request's language.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly errors?: Record<string, string[]>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode | (string & {}),
    options: {
      status?: number;
      detail?: string;
      errors?: Record<string, string[]>;
      headers?: Record<string, string>;
    } = {},
  ) {
    const known = code in ERROR_MESSAGES ? ERROR_MESSAGES[code as ErrorCode] : undefined;
    super(options.detail ?? known ?? code);
    this.code = code;
    this.statusCode = options.status ?? STATUS_BY_CODE[code as ErrorCode] ?? 400;
    this.errors = options.errors;
    this.headers = options.headers;
  }

  /** True when the message is the catalogue text and may be translated. */
  get isCatalogueText(): boolean {
    return (ERROR_MESSAGES as Record<string, string>)[this.code] === this.message;
  }
}

export const notFound = (detail?: string) => new AppError('not_found', { detail });

/**
 * A route schema's error responses: each status answers the API error shape
 * (`apiErrors(400, 401, 404)` → `{ 400: ApiErrorSchema, 401: ApiErrorSchema, 404: ApiErrorSchema }`).
 */
export function apiErrors<const S extends readonly number[]>(
  ...statuses: S
): { [K in S[number]]: typeof ApiErrorSchema } {
  return Object.fromEntries(statuses.map((status) => [status, ApiErrorSchema])) as {
    [K in S[number]]: typeof ApiErrorSchema;
  };
}
