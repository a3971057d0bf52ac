/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/vanillajs" />

interface ImportMetaEnv {
  /** The API's base URL when the web app is hosted apart from it; empty = same origin. */
  readonly VITE_API_URL?: string;
  /** The edition when the web app runs on its own (the server writes it otherwise). */
  readonly VITE_APP_NAME?: string;
}

/** en.json without the sections that load with their lazy pages and the server-only ones (vite.config.ts). */
declare module 'virtual:reverie-en-core' {
  const texts: Record<string, unknown>;
  export default texts;
}

/** One English section that loads with its lazy page or modal (LAZY_ENGLISH_SECTIONS in vite.config.ts). */
declare module 'virtual:reverie-en/*' {
  const section: Record<string, unknown>;
  export default section;
}
