import { API_BASE_URL } from './config';

/** Media URLs from the API are paths; a web app hosted apart from the API prefixes its base. */
export const mediaSrc = (url: string) => (url.startsWith('/') ? `${API_BASE_URL}${url}` : url);

/**
 * Whether the server gave this picture as an explicit picture's blurred copy
 * (`<key>.blurred.webp`, docs/moderation.md): the server decides who sees what, the web only
 * explains it.
 */
export const isBlurredPicture = (url: string | null | undefined): boolean =>
  typeof url === 'string' && /\.blurred\.webp(?:[?#]|$)/.test(url);
