import { FetchError, ofetch, type FetchOptions } from 'ofetch';
import type { ApiError } from '@reverie/shared';
import { API_BASE_URL } from './config';
import { currentLocale } from './i18n';
import { getAccessToken } from './session';

/**
 * The one HTTP client. ofetch's default retry policy is the specification's: statuses
 * 408, 409, 425, 429, 500, 502, 503 and 504 are retried once for reading methods and never
 * for data-changing ones. Every request carries the language and, when authorized, the
 * bearer access token.
 */
export const api = ofetch.create({
  baseURL: API_BASE_URL,
  onRequest({ options }) {
    options.headers = apiHeaders(options.headers);
  },
});

export type ApiOptions = FetchOptions<'json'>;

/** A failed API call with the server's error shape, when it sent one. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly data: Partial<ApiError> | null,
    /** Seconds from a `Retry-After` header (429), when the server sent one. */
    readonly retryAfterSeconds: number | null = null,
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

/**
 * What to do when a signed-in request answers 401 (the access token expired, e.g. after the
 * device slept): the auth feature registers its single-flight refresh here. True when new
 * tokens were stored; false clears nothing here (the handler decides).
 */
let unauthorizedHandler: (() => Promise<boolean>) | null = null;
export function setUnauthorizedHandler(handler: (() => Promise<boolean>) | null): void {
  unauthorizedHandler = handler;
}

/**
 * After a 401 to a call made with `token`: true when there are new tokens to repeat the call
 * with — another call refreshed already, or the single-flight refresh succeeded now.
 */
export async function refreshAfterUnauthorized(token: string | null): Promise<boolean> {
  if (!token || !unauthorizedHandler) return false;
  // Another request may have refreshed already; else refresh now (single flight).
  const fresh = getAccessToken() !== token || (await unauthorizedHandler());
  return fresh && Boolean(getAccessToken());
}

export type RequestOptions = ApiOptions & {
  /** False: a 401 is returned to the caller as is (the profile load has its own rule, spec §4). */
  refreshOnUnauthorized?: boolean;
};

/**
 * Calls the API and throws ApiRequestError on failure. A 401 to a request that carried an
 * access token refreshes the tokens once and repeats the request with the new one.
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { refreshOnUnauthorized = true, ...fetchOptions } = options;
  const token = getAccessToken();
  try {
    return await api<T>(path, fetchOptions);
  } catch (error) {
    const failure = toApiRequestError(error);
    if (failure.status !== 401 || !refreshOnUnauthorized || !(await refreshAfterUnauthorized(token))) throw failure;
    try {
      return await api<T>(path, fetchOptions);
    } catch (retryError) {
      throw toApiRequestError(retryError);
    }
  }
}

/** The headers every API call carries: the interface language and, when signed in, the token. */
export function apiHeaders(init?: HeadersInit): Headers {
  const headers = new Headers(init);
  headers.set('Accept-Language', currentLocale());
  const token = getAccessToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/** A multipart body for an upload: `fields` first, then the file as `file` (what the API's upload routes read). */
export function fileForm(file: File, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file);
  return form;
}
