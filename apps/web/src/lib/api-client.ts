import type { ApiError } from '@reverie/shared';
import { API_BASE_URL } from './config';
import { currentLocale } from './i18n';
import { getAccessToken } from '../features/auth/session';

type QueryValue = string | number | boolean | null | undefined;

export interface ApiOptions extends Omit<RequestInit, 'body' | 'headers' | 'method'> {
  method?: string;
  headers?: HeadersInit;
  /** Plain objects, arrays and primitives are sent as JSON (a string as it is); FormData, Blob etc. as they are. */
  body?: unknown;
  /** Added to the URL's query string; undefined values are left out. */
  query?: Record<string, QueryValue>;
  /** How often a failed call is repeated (see RETRY_STATUSES); default 1 for reading methods, 0 otherwise. */
  retry?: number | false;
}

/**
 * The specification's retry policy (formerly ofetch's default, which it matched): statuses
 * 408, 409, 425, 429, 500, 502, 503 and 504, and network failures, are retried once, at once,
 * for reading methods and never for data-changing ones; an aborted call is never retried.
 */
const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const PAYLOAD_METHODS = new Set(['PATCH', 'POST', 'PUT', 'DELETE']);
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const JSON_TYPE = /^application\/(?:[\w!#$%&*.^`~-]*\+)?json$/i;

/** Plain objects, arrays and primitives travel as JSON (ofetch's rule). */
function isJsonBody(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
  if ('buffer' in value || value instanceof FormData || value instanceof URLSearchParams) return false;
  return value.constructor?.name === 'Object' || typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** `query` appended to the path: `key=value`, a bare `key` for null or '', undefined left out. */
function withQuery(path: string, query: Record<string, QueryValue> | undefined): string {
  const items = Object.entries(query ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const text = value === null ? '' : String(value);
      return text ? `${encodeURIComponent(key)}=${encodeURIComponent(text)}` : encodeURIComponent(key);
    });
  if (!items.length) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${items.join('&')}`;
}

/** The answer's body: JSON (also when no content type is given; text that is not JSON stays text), text, a stream or a Blob. */
async function readBody(response: Response, method: string): Promise<unknown> {
  if (!response.body || NULL_BODY_STATUSES.has(response.status) || method === 'HEAD') return undefined;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!type || JSON_TYPE.test(type)) {
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (type === 'text/event-stream') return response.body;
  if (type.startsWith('text/') || /^(image\/svg|application\/(xml|xhtml|html))$/.test(type)) return response.text();
  return response.blob();
}

/**
 * One call to the API with the headers every call carries (apiHeaders) and the retry policy
 * above. Throws ApiRequestError: the status and the server's error body for 4xx and 5xx,
 * status 0 when the network failed or the call was aborted.
 */
async function send<T>(path: string, options: ApiOptions): Promise<T> {
  const { query, retry, body: rawBody, headers: initHeaders, ...init } = options;
  const method = (options.method ?? 'GET').toUpperCase();
  const url = withQuery(API_BASE_URL && !/^[a-z][a-z\d+.-]*:/i.test(path) ? `${API_BASE_URL}${path}` : path, query);
  let retries = retry === false ? 0 : (retry ?? (PAYLOAD_METHODS.has(method) ? 0 : 1));
  for (;;) {
    const headers = apiHeaders(initHeaders);
    let body = rawBody as BodyInit | null | undefined;
    if (rawBody && PAYLOAD_METHODS.has(method) && isJsonBody(rawBody)) {
      if (typeof rawBody !== 'string') body = JSON.stringify(rawBody);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      if (!headers.has('accept')) headers.set('accept', 'application/json');
    }
    let response: Response;
    try {
      response = await fetch(url, { ...init, method, headers, body });
    } catch (error) {
      if (retries > 0 && (error as Error | null)?.name !== 'AbortError') {
        retries -= 1;
        continue;
      }
      throw new ApiRequestError(0, null);
    }
    const data = await readBody(response, method);
    if (response.status < 400 || response.status >= 600) return data as T;
    if (retries > 0 && RETRY_STATUSES.has(response.status)) {
      retries -= 1;
      continue;
    }
    throw new ApiRequestError(response.status, data && typeof data === 'object' ? (data as Partial<ApiError>) : null);
  }
}

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

/** Any error as an ApiRequestError (status 0 when it is not one). */
export function toApiRequestError(error: unknown): ApiRequestError {
  return error instanceof ApiRequestError ? error : new ApiRequestError(0, null);
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
    return await send<T>(path, fetchOptions);
  } catch (error) {
    const failure = toApiRequestError(error);
    if (failure.status !== 401 || !refreshOnUnauthorized || !(await refreshAfterUnauthorized(token))) throw failure;
    try {
      return await send<T>(path, fetchOptions);
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
