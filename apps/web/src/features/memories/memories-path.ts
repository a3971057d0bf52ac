/** The memory page of a character (`/memories/{slug}`), optionally opened on one memory. */
export const memoriesPath = (slug: string, memoryId?: string) =>
  `/memories/${encodeURIComponent(slug)}${memoryId ? `?memory=${encodeURIComponent(memoryId)}` : ''}`;
