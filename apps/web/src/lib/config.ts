/** The API's base URL: empty when the server also serves the web app (same origin). */
export const API_BASE_URL = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');
