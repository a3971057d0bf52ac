/** The companion's query keys: the user's settings, and one chat's "she can write to me first". */
export const companionKeys = {
  all: ['companion'] as const,
  settings: () => ['companion', 'settings'] as const,
  chat: (chatId: string) => ['companion', 'chat', chatId] as const,
};

/** The browser's time zone (`Europe/Berlin`); null when it cannot say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}
