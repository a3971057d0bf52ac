/** The lorebooks' pages (docs/lorebooks.md): the user's books, one book, a character's book for its author. */
export const LOREBOOKS_PATH = '/lorebooks';
export const lorebookPath = (id: string) => `/lorebooks/${encodeURIComponent(id)}`;
export const characterLorebookPath = (slug: string) => `/lorebooks/character/${encodeURIComponent(slug)}`;
