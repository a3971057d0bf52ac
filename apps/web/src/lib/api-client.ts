import { FetchError, ofetch, type FetchOptions } from 'ofetch';
import type { ApiError } from '@reverie/shared';
import { API_BASE_URL } from './config';
import { currentLocale } from './i18n';
import { getAccessToken } from '../features/auth/session';

/**
 * The one HTTP client. ofetch's default retry policy is the specification's: statuses
 * 408, 409, 425, 429, 500, 502, 503 and 504 are retried once for reading methods and never
 * for data-changing ones. Every request carries the language and, when authorized, the
 * bearer access token.
 */
export const api = ofetch.create({
  baseURL: API_BASE_URL,
  onRequest({ options }) {
    const headers = new Headers(options.headers);
    headers.set('Accept-Language', currentLocale());
    const token = getAccessToken();
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    options.headers = headers;
  },
});

export type ApiOptions = FetchOptions<'json'>;

/** A failed API call with the server's error shape, when it sent one. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly data: Partial<ApiError> | null,
  ) {
    super(data?.detail ?? `Request failed with status ${status}`);
  }

  get code(): string | undefined {
    return this.data?.code;
  }

  get fieldErrors(): Record<string, string[]> {
    return this.data?.errors ?? {};
  }
}

/** Converts ofetch's errors into ApiRequestError (status 0 for network failures). */
export function toApiRequestError(error: unknown): ApiRequestError {
  if (error instanceof ApiRequestError) return error;
  if (error instanceof FetchError) {
    const data = (error.data && typeof error.data === 'object' ? error.data : null) as Partial<ApiError> | null;
    return new ApiRequestError(error.statusCode ?? 0, data);
  }
  return new ApiRequestError(0, null);
}

/** Calls the API and throws ApiRequestError on failure. */
export async function request<T>(path: string, options: ApiOptions = {}): Promise<T> {
  try {
    return await api<T>(path, options);
  } catch (error) {
    throw toApiRequestError(error);
  }
}
