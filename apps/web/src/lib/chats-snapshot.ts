import { storage } from './storage';

/**
 * The last chats list, kept for the offline page (issue 31): written by the chats page with
 * every answer, read by the offline page, forgotten at sign-out.
 */
/** One chat of the last chats list, as the offline page shows it. */
export interface ChatSnapshot {
  id: string;
  name: string;
  preview: string;
  path: string;
  unread: number;
  at: string;
}

const CHATS_SNAPSHOT = 'chats_snapshot';
const SNAPSHOT_MAX = 30;

/** Keeps the last chats list (the chats page calls it with every answer). */
export function saveChatsSnapshot(chats: ChatSnapshot[]): void {
  storage.set(CHATS_SNAPSHOT, JSON.stringify(chats.slice(0, SNAPSHOT_MAX)));
}

export function readChatsSnapshot(): ChatSnapshot[] {
  try {
    const value: unknown = JSON.parse(storage.get(CHATS_SNAPSHOT) ?? '[]');
    return Array.isArray(value) ? (value as ChatSnapshot[]) : [];
  } catch {
    return [];
  }
}

/** Forgets the kept list (signing out). */
export const clearChatsSnapshot = () => storage.remove(CHATS_SNAPSHOT);
