/** The API paths of a character's memories (`botId`: the character's id or slug). */
export const characterPath = (botId: string, rest: string) => `/api/characters/${encodeURIComponent(botId)}/${rest}`;
export const memoryPath = (id: string, rest = '') => `/api/memories/${encodeURIComponent(id)}${rest}`;
