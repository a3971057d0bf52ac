/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's base URL when the web app is hosted apart from it; empty = same origin. */
  readonly VITE_API_URL?: string;
  /** The edition when the web app runs on its own (the server writes it otherwise). */
  readonly VITE_APP_NAME?: string;
}

/** en.json without the sections that load with their lazy pages (vite.config.ts). */
declare module 'virtual:reverie-en-core' {
  const texts: Record<string, unknown>;
  export default texts;
}
