/** My characters: the user's characters and personas (a page under Profile). */
export const MY_CHARACTERS_PATH = '/settings/characters';
