import type { ApiError } from '@reverie/shared';
import { getAccessToken } from './session';
import { apiHeaders, ApiRequestError, refreshAfterUnauthorized } from './api-client';
import { API_BASE_URL } from './config';

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date); null when absent. */
export function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  let data: Partial<ApiError> | null = null;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') data = body as Partial<ApiError>;
  } catch {
    data = null;
  }
  return new ApiRequestError(response.status, data, parseRetryAfter(response.headers.get('Retry-After')));
}

/**
 * A raw fetch to the API for answers read as a stream (server-sent events): the same headers
 * as `request`, the same single refresh and repeat on 401, and ApiRequestError for any
 * answer that is not 2xx (status 0 when the network failed). The caller reads the body.
 * (Apart from api-client.ts so that only the pages that stream load it.)
 */
export async function requestRaw(path: string, init: RequestInit = {}): Promise<Response> {
  const send = async () => {
    try {
      return await fetch(`${API_BASE_URL}${path}`, { ...init, headers: apiHeaders(init.headers) });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiRequestError(0, null);
    }
  };
  const token = getAccessToken();
  let response = await send();
  if (response.status === 401 && (await refreshAfterUnauthorized(token))) response = await send();
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}
