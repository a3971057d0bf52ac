import { API_BASE_URL } from '../../../lib/config';

/** Media URLs from the API are paths; a web app hosted apart from the API prefixes its base. */
export const mediaSrc = (url: string) => (url.startsWith('/') ? `${API_BASE_URL}${url}` : url);
